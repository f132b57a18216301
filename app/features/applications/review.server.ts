/**
 * Reviewing applications in the Sanctum: lists searched, filtered and paged in SQL, their history,
 * where one application stands, and the CSV export. Changes are in review-changes.server.ts.
 */
import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { APPLICATION_STATUSES, type ApplicationKind, type ApplicationStatus, type Attendance, type AttendeeRole, type VRChatLinkWay } from "~/db/enums";
import { applicationAuditLog, applications, eventApplications } from "~/db/schema";
import { answerText, storedAnswerTo, type StoredAnswer } from "~/utils/form-questions";
import { csvDate, csvFixedColumns, csvRow } from "./csv";
import { columnsOf, liveOf, type ReviewScope } from "./review-scope.server";

export type { ReviewScope } from "./review-scope.server";

/** Applications per review page; a bulk decision covers at most one page. */
export const REVIEW_PAGE_SIZE = 50;
/** "spam": only what admins marked as spam, which every other filter (and count) leaves out. */
export const STATUS_FILTERS = ["all", ...APPLICATION_STATUSES, "spam"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];


export interface ReviewedApplication {
  id: string;
  vrchatUsername: string;
  discordId: string;
  /** The answers to the questions the applicant was shown, in order. */
  answers: StoredAnswer[];
  status: ApplicationStatus;
  submittedAt: string;
  reviewedAt: string | null;
  notes: string | null;
  spam: boolean;
  /** The applicant's VRChat account, as linked by an admin (group applications). */
  vrchatUserId: string | null;
  vrchatDisplayName: string | null;
  /** How the VRChat account was linked, and by which staff member when they chose it. */
  vrchatLinkedHow: VRChatLinkWay | null;
  vrchatLinkedBy: string | null;
  /** What became of a profile link the form could not link at once (see the submission flow). */
  vrchatProfileCheck: "claimed" | "unchecked" | null;
  /** The applicant's account in the group's Discord server, as linked by an admin. */
  discordUserId: string | null;
  discordDisplayName: string | null;
  /** How the Discord account was linked (null: none, or before this was kept). */
  discordLinkedHow: VRChatLinkWay | null;
  /** After the event, whether the approved attendee came (event applications). */
  attendance: Attendance | null;
  /** Where the attendee stands with the event's VRChat role (event applications). */
  eventRole: AttendeeRole | null;
}

export interface AuditEntry {
  applicationId: string;
  actorName: string;
  field: "status" | "notes" | "spam" | "vrchat" | "discord" | "attendance" | "answers";
  fromValue: string | null;
  toValue: string | null;
  at: string;
}

/** 'Answer to <question> is <value>': the question's id and the value, as `<id>:<value>`. */
const AnswerFilterSchema = z
  .string()
  .max(300)
  .transform((text) => {
    const at = text.indexOf(":");
    return { questionId: text.slice(0, at), value: text.slice(at + 1) };
  })
  .refine((filter) => z.uuid().safeParse(filter.questionId).success && filter.value !== "");

export const ReviewQuerySchema = z.object({
  status: z.enum(STATUS_FILTERS).catch("all"),
  q: z.string().trim().max(200).catch(""),
  answer: AnswerFilterSchema.optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type ReviewQuery = z.infer<typeof ReviewQuerySchema>;

/** A LIKE pattern matching `text` anywhere, with the user's % and _ taken literally. */
function containing(text: string) {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listForReview(db: Database, scope: ReviewScope, query: ReviewQuery) {
  const { table, scopeWhere, notes, vrchatUserId, vrchatDisplayName, vrchatProfileCheck, eventRole, attendance, attended } = columnsOf(scope);
  const filters: SQL[] = [scopeWhere, query.status === "spam" ? isNotNull(table.spamAt) : isNull(table.spamAt)];
  if (query.status !== "all" && query.status !== "spam") filters.push(eq(table.status, query.status));
  if (query.q) filters.push(or(ilike(table.vrchatUsername, containing(query.q)), ilike(table.discordId, containing(query.q)))!);
  if (query.answer) {
    // The answer kept for that question is the value, or (Checkboxes) holds it among its choices.
    const { questionId, value } = query.answer;
    filters.push(
      sql`(${table.answers} @> ${JSON.stringify([{ questionId, value }])}::jsonb or ${table.answers} @> ${JSON.stringify([{ questionId, value: [value] }])}::jsonb)`,
    );
  }
  const where = and(...filters);

  const [rows, [counts], [matching]] = await Promise.all([
    db
      .select({
        id: table.id,
        vrchatUsername: table.vrchatUsername,
        discordId: table.discordId,
        answers: table.answers,
        status: table.status,
        submittedAt: table.submittedAt,
        reviewedAt: table.reviewedAt,
        notes,
        spam: sql<boolean>`${table.spamAt} is not null`,
        vrchatUserId,
        vrchatDisplayName,
        vrchatProfileCheck,
        vrchatLinkedHow: table.vrchatLinkedHow,
        vrchatLinkedBy: table.vrchatLinkedBy,
        discordUserId: table.discordUserId,
        discordDisplayName: table.discordDisplayName,
        discordLinkedHow: table.discordLinkedHow,
        attendance,
        eventRole,
      })
      .from(table)
      .where(where)
      // The waitlist reads in its order, first in line first; every other list newest first.
      .orderBy(...(query.status === "waitlist" ? [asc(table.submittedAt), asc(table.id)] : [desc(table.submittedAt), desc(table.id)]))
      .limit(REVIEW_PAGE_SIZE)
      .offset((query.page - 1) * REVIEW_PAGE_SIZE),
    db
      .select({
        total: sql<number>`count(*) filter (where ${table.spamAt} is null)::int`,
        pending: sql<number>`count(*) filter (where ${table.status} = 'pending' and ${table.spamAt} is null)::int`,
        approved: sql<number>`count(*) filter (where ${table.status} = 'approved' and ${table.spamAt} is null)::int`,
        rejected: sql<number>`count(*) filter (where ${table.status} = 'rejected' and ${table.spamAt} is null)::int`,
        waitlist: sql<number>`count(*) filter (where ${table.status} = 'waitlist' and ${table.spamAt} is null)::int`,
        withdrawn: sql<number>`count(*) filter (where ${table.status} = 'withdrawn' and ${table.spamAt} is null)::int`,
        attended,
        spam: sql<number>`count(*) filter (where ${table.spamAt} is not null)::int`,
      })
      .from(table)
      .where(scopeWhere),
    db.select({ n: sql<number>`count(*)::int` }).from(table).where(where),
  ]);

  const list: ReviewedApplication[] = rows.map((row) => ({
    ...row,
    discordId: row.discordId ?? "",
    submittedAt: row.submittedAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  }));
  return { applications: list, counts: counts!, matching: matching!.n, pageCount: Math.max(1, Math.ceil(matching!.n / REVIEW_PAGE_SIZE)) };
}

export async function listAudit(db: Database, applicationIds: string[]): Promise<AuditEntry[]> {
  if (applicationIds.length === 0) return [];
  const rows = await db
    .select()
    .from(applicationAuditLog)
    .where(inArray(applicationAuditLog.applicationId, applicationIds))
    .orderBy(asc(applicationAuditLog.createdAt));
  return rows.map((row) => ({
    applicationId: row.applicationId,
    actorName: row.actorName,
    field: row.field as AuditEntry["field"],
    fromValue: row.fromValue,
    toValue: row.toValue,
    at: row.createdAt.toISOString(),
  }));
}

/**
 * Where an application stands, for a decision made away from the Sanctum's lists (a Discord
 * button): its status, its event (for an event application), and who set its status last.
 * Null when it is gone or marked as spam.
 */
/** Whether an application belongs to this review (an event's application to that event): a host's path never reaches another's. */
export async function isInReview(db: Database, scope: ReviewScope, applicationId: string) {
  const application = await describeApplication(db, scope.kind, applicationId);
  return application !== null && (scope.kind === "group" || application.eventId === scope.eventId);
}

export async function describeApplication(db: Database, kind: ApplicationKind, id: string) {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] =
    kind === "event"
      ? await db.select({ status: eventApplications.status, eventId: eventApplications.eventId }).from(eventApplications).where(and(eq(eventApplications.id, id), isNull(eventApplications.spamAt)))
      : await db.select({ status: applications.status, eventId: sql<string | null>`null` }).from(applications).where(and(eq(applications.id, id), isNull(applications.spamAt)));
  if (!row) return null;
  const [last] = await db
    .select({ actorName: applicationAuditLog.actorName })
    .from(applicationAuditLog)
    .where(and(eq(applicationAuditLog.applicationId, id), eq(applicationAuditLog.field, "status")))
    .orderBy(desc(applicationAuditLog.createdAt))
    .limit(1);
  return { status: row.status, eventId: row.eventId, decidedBy: last?.actorName ?? null };
}

const EXPORT_BATCH = 1000;

/**
 * The applications of a scope as a CSV stream: header, then rows newest first, read in batches
 * (keyset paging), so a large export neither waits for nor holds every row at once. `questions`
 * gives the answer columns, in order (a column per question text, its answers found by the question's
 * id); answers to questions since removed follow them, by their text as asked.
 */
export function exportCsv(db: Database, scope: ReviewScope, questions: readonly { id: string; question: string }[]): ReadableStream<Uint8Array> {
  const { table, notes } = columnsOf(scope);
  const live = liveOf(scope);
  const encoder = new TextEncoder();
  let columns: { id: string | null; question: string }[] = [...questions];
  let after: { submittedAt: Date; id: string } | null = null;
  let started = false;
  const cell = (answers: readonly StoredAnswer[], column: { id: string | null; question: string }) =>
    answerText(
      (column.id ? storedAnswerTo(answers, { id: column.id, question: column.question }) : answers.find((answer) => !known(answer) && answer.question === column.question))?.value,
    );
  const ids = new Set(questions.map((question) => question.id));
  const texts = new Set(questions.map((question) => question.question));
  // An answer whose question is on the form (by id, or by text when kept from before ids).
  const known = (answer: StoredAnswer) => (answer.questionId !== null ? ids.has(answer.questionId) : texts.has(answer.question));

  // Read now, in the request's language: the stream is pulled later, by whoever reads the response.
  const fixedColumns = csvFixedColumns();
  return new ReadableStream({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          // Answers to questions no longer on the form still belong in the export.
          const extra = await db
            .selectDistinct({ id: sql<string | null>`answer->>'questionId'`, question: sql<string>`answer->>'question'` })
            .from(sql`${table}, jsonb_array_elements(${table.answers}) as answer`)
            .where(live);
          const removed = extra.filter((row) => !known({ questionId: row.id, question: row.question, type: "text", value: "" })).map((row) => row.question);
          columns = [...columns, ...[...new Set(removed)].sort().map((question) => ({ id: null, question }))];
          controller.enqueue(encoder.encode(csvRow([...fixedColumns, ...columns.map((column) => column.question)])));
          return;
        }
        const cursor: SQL | undefined = after
          ? sql`(${table.submittedAt}, ${table.id}) < (${after.submittedAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined;
        const rows = await db
          .select({
            id: table.id,
            vrchatUsername: table.vrchatUsername,
            discordId: table.discordId,
            status: table.status,
            submittedAt: table.submittedAt,
            reviewedAt: table.reviewedAt,
            notes,
            answers: table.answers,
          })
          .from(table)
          .where(and(live, cursor))
          .orderBy(desc(table.submittedAt), desc(table.id))
          .limit(EXPORT_BATCH);
        if (rows.length === 0) {
          controller.close();
          return;
        }
        const last = rows.at(-1)!;
        after = { submittedAt: last.submittedAt, id: last.id };
        const chunk = rows
          .map((row) =>
            csvRow([
              row.vrchatUsername,
              row.discordId,
              row.status,
              csvDate(row.submittedAt),
              csvDate(row.reviewedAt),
              row.notes,
              ...columns.map((column) => cell(row.answers, column)),
            ]),
          )
          .join("");
        controller.enqueue(encoder.encode(chunk));
      } catch (error) {
        controller.error(error);
      }
    },
  });
}
