import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { m } from "~/paraglide/messages";
import { isUniqueViolation, type Database } from "~/db/db.server";
import { applicationAuditLog, applicationQuestions, applications, eventApplicationQuestions, eventApplications } from "~/db/schema";
import { formQuestionsMemo } from "~/utils/memo.server";
import { truncate } from "~/utils/text";
import type { ApplicationStatus } from "~/db/enums";
import { answerText, type QuestionSettings } from "~/utils/form-questions";
import { applicantIdentity, checkAnswers, storedAnswers, type Answers, type FormQuestion } from "./answers";
import { lockPlaces } from "./capacity.server";

/** Who an application is for: the group, or one event. */
export type ApplicationScope = { kind: "group" } | { kind: "event"; eventId: string };

/** The refusal of a second application, in the page's language. */
export const DUPLICATE_MESSAGE = { event: m.duplicate_event, group: m.duplicate_group } as const;

export const submitFailedMessage = () => m.submit_failed();

/**
 * A form's questions as the public form shows them and checks its answers against; kept for a second
 * (the busiest read of a crowd at the door), forgotten when this process edits questions.
 */
export function listFormQuestionsKept(db: Database, scope: ApplicationScope): Promise<FormQuestion[]> {
  return formQuestionsMemo.get(db, scope.kind === "event" ? scope.eventId : "group", () => listFormQuestions(db, scope));
}

export async function listFormQuestions(db: Database, scope: ApplicationScope): Promise<FormQuestion[]> {
  const table = scope.kind === "event" ? eventApplicationQuestions : applicationQuestions;
  const columns = {
    id: table.id,
    question: table.question,
    questionType: table.questionType,
    options: table.options,
    required: table.required,
    helpText: table.helpText,
    settings: table.settings,
    showIf: table.showIf,
    translations: table.translations,
  };
  const rows =
    scope.kind === "event"
      ? await db
          .select(columns)
          .from(eventApplicationQuestions)
          .where(eq(eventApplicationQuestions.eventId, scope.eventId))
          .orderBy(asc(eventApplicationQuestions.orderIndex), asc(eventApplicationQuestions.createdAt))
      : await db
          .select(columns)
          .from(applicationQuestions)
          .orderBy(asc(applicationQuestions.orderIndex), asc(applicationQuestions.createdAt));
  return rows.map((row) => ({
    ...row,
    questionType: row.questionType as FormQuestion["questionType"],
    options: row.questionType === "select" || row.questionType === "checkboxes" ? (row.options ?? []) : null,
    settings: row.settings as QuestionSettings,
  }));
}

export interface StoredApplication {
  id: string;
  scope: ApplicationScope;
  vrchatUsername: string;
  discordId: string;
  submittedAt: Date;
  /** Pending, or (an event whose places were all taken) waitlist. */
  status: ApplicationStatus;
  answers: { question: string; answer: string }[];
  /** The VRChat account linked as it arrived (its profile link under the name given), if any. */
  vrchatUserId: string | null;
}

export type SubmitResult =
  | { ok: true; application: StoredApplication }
  | { ok: false; status: 400 | 409; message: string; questionId?: string };

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Who the applicant's own form took them to be in VRChat (group applications): see the submission flow. */
export type ProfileFinding =
  /** VRChat names the account as the applicant named themselves: linked at once. */
  | { check: "confirmed"; account: { userId: string; displayName: string } }
  /** VRChat names it otherwise: kept as the applicant's claim, for a staff member to link by hand. */
  | { check: "claimed"; account: { userId: string; displayName: string } }
  /** VRChat could not be asked (its allowance for visitors spent, or unreachable). */
  | { check: "unchecked"; userId: string };

/** A check that needs more than the form (a lookup elsewhere): a refusal (a 400), or what it found. */
export type Vetting = { refused: { message: string; questionId: string } } | { found: ProfileFinding } | null;

const FORM_ACTOR = "the applicant (their form)";

function profileColumns(finding: ProfileFinding | undefined) {
  if (!finding) return {};
  if (finding.check === "confirmed") {
    return { vrchatUserId: finding.account.userId, vrchatDisplayName: finding.account.displayName, vrchatLinkedHow: "name" as const };
  }
  return { vrchatProfileCheck: finding.check };
}

function profileHistory(finding: ProfileFinding) {
  if (finding.check === "confirmed") return `linked to ${finding.account.displayName} (${finding.account.userId})`;
  if (finding.check === "claimed") {
    return `claimed, not confirmed: VRChat calls ${finding.account.userId} "${finding.account.displayName}", not the username given`;
  }
  return `not checked with VRChat: ${finding.userId} (VRChat could not be asked)`;
}

/** Whether someone already applied (for the group, or this event) under this VRChat username or Discord ID. */
export async function alreadyApplied(db: Database, scope: ApplicationScope, identity: { vrchatUsername: string; discordId: string }) {
  const table = scope.kind === "event" ? eventApplications : applications;
  // One `exists` for each claim, each written as its unique index is (a plain `or` of the two is
  // read by scanning the whole table, as many times slower as there are applications).
  const claim = (column: typeof table.vrchatUsername | typeof table.discordId, value: string) =>
    value.trim() === ""
      ? null
      : sql`exists (${db
          .select({ one: sql`1` })
          .from(table)
          .where(
            and(
              scope.kind === "event" ? eq(eventApplications.eventId, scope.eventId) : undefined,
              sql`btrim(coalesce(${column}, '')) <> ''`,
              isNull(table.spamAt),
              sql`lower(btrim(${column})) = lower(btrim(${value}))`,
            ),
          )})`;
  const claims = [claim(table.vrchatUsername, identity.vrchatUsername), claim(table.discordId, identity.discordId)].filter((c) => c !== null);
  if (claims.length === 0) return false;
  const result = (await db.execute(sql`select (${sql.join(claims, sql` or `)}) as found`)) as unknown as { rows: { found: boolean }[] };
  return result.rows[0]?.found === true;
}

/**
 * Checks the answers against the current questions and stores the application. `onStored` runs in
 * the same transaction (the route queues the notifications there), so either both are written or
 * neither is. A name that already applied is refused by a read before any lookup elsewhere (`vet`
 * costs a call to VRChat), and by the unique indexes at the write, which settle a race. An event
 * whose places are all taken still takes applications, on its waitlist.
 */
export async function submitApplication(
  db: Database,
  {
    scope,
    questions,
    fields,
    now,
    statusTokenHash,
    vet,
    onStored,
    language,
  }: {
    scope: ApplicationScope;
    /** The language the applicant applied in. */
    language?: string;
    questions: readonly FormQuestion[];
    fields: (name: string) => unknown;
    now: Date;
    /** The hash of the applicant's private status link. */
    statusTokenHash?: string;
    /** Checks that need more than the form (a lookup elsewhere), once the answers are read and new. */
    vet?: (answers: Answers) => Promise<Vetting>;
    onStored?: (tx: Transaction, application: StoredApplication) => Promise<void>;
  },
): Promise<SubmitResult> {
  const checked = checkAnswers(questions, fields);
  if (!checked.ok) return { ok: false, status: 400, message: checked.message, questionId: checked.questionId };
  const identity = applicantIdentity(questions, checked.answers);
  // Before a lookup elsewhere, a read for a repeat (it costs a round trip, so only then).
  if (vet && (await alreadyApplied(db, scope, identity))) return { ok: false, status: 409, message: DUPLICATE_MESSAGE[scope.kind]() };
  const vetting = await vet?.(checked.answers);
  if (vetting && "refused" in vetting) return { ok: false, status: 400, ...vetting.refused };
  const finding = vetting ? vetting.found : undefined;

  const answers = storedAnswers(questions, checked.answers);
  const values = { ...identity, answers, submittedAt: now, statusTokenHash, language };
  try {
    const application = await db.transaction(async (tx) => {
      const places = scope.kind === "event" ? await lockPlaces(tx, scope.eventId) : null;
      const status: ApplicationStatus = places && places !== "missing" && places.left < 1 ? "waitlist" : "pending";
      const [row] =
        scope.kind === "event"
          ? await tx
              .insert(eventApplications)
              .values({ ...values, ...profileColumns(finding), status, eventId: scope.eventId })
              .returning({ id: eventApplications.id })
          : await tx.insert(applications).values({ ...values, ...profileColumns(finding) }).returning({ id: applications.id });
      if (finding) {
        await tx.insert(applicationAuditLog).values({
          applicationKind: scope.kind,
          applicationId: row!.id,
          actorName: FORM_ACTOR,
          field: "vrchat",
          toValue: truncate(profileHistory(finding), 500),
          createdAt: now,
        });
      }
      const stored: StoredApplication = {
        id: row!.id,
        scope,
        ...identity,
        submittedAt: now,
        status,
        answers: answers.map((answer) => ({ question: answer.question, answer: answerText(answer.value) })),
        vrchatUserId: finding?.check === "confirmed" ? finding.account.userId : null,
      };
      await onStored?.(tx, stored);
      return stored;
    });
    return { ok: true, application };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, status: 409, message: DUPLICATE_MESSAGE[scope.kind]() };
    throw error;
  }
}

export interface ApplicationCounts {
  group: { total: number; pending: number };
  event: { total: number; pending: number };
}

/** Pending applications (group and event, not spam) sent before `before`: those that have waited. */
export async function countWaitingSince(db: Database, before: Date): Promise<number> {
  const waiting = (table: typeof applications | typeof eventApplications) =>
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(and(isNull(table.spamAt), eq(table.status, "pending"), sql`${table.submittedAt} < ${before.toISOString()}::timestamptz`));
  const [[group], [event]] = await Promise.all([waiting(applications), waiting(eventApplications)]);
  return group!.n + event!.n;
}

/** The dashboard's application figures, counted in SQL. */
export async function countApplications(db: Database): Promise<ApplicationCounts> {
  const counts = (table: typeof applications | typeof eventApplications) =>
    db
      .select({
        total: sql<number>`count(*)::int`,
        pending: sql<number>`count(*) filter (where ${table.status} = 'pending')::int`,
      })
      .from(table)
      // What an admin marked as spam is not an application to count.
      .where(isNull(table.spamAt));
  const [[group], [event]] = await Promise.all([counts(applications), counts(eventApplications)]);
  return { group: group!, event: event! };
}
