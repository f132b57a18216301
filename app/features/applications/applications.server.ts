import { asc, eq, isNull, sql } from "drizzle-orm";
import { isUniqueViolation, type Database } from "~/db/db.server";
import { applicationQuestions, applications, eventApplicationQuestions, eventApplications } from "~/db/schema";
import type { ApplicationStatus } from "~/db/enums";
import { applicantIdentity, checkAnswers, responsesByQuestion, type FormQuestion } from "./answers";
import { lockPlaces } from "./capacity.server";

/** Who an application is for: the group, or one event. */
export type ApplicationScope = { kind: "group" } | { kind: "event"; eventId: string };

export const DUPLICATE_MESSAGE = {
  event: "You have already submitted an application for this event.",
  group: "You have already submitted an application to join the group.",
} as const;

export const SUBMIT_FAILED_MESSAGE = "Failed to submit application. Please try again.";

export async function listFormQuestions(db: Database, scope: ApplicationScope): Promise<FormQuestion[]> {
  const table = scope.kind === "event" ? eventApplicationQuestions : applicationQuestions;
  const columns = {
    id: table.id,
    question: table.question,
    questionType: table.questionType,
    options: table.options,
    required: table.required,
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
    options: row.questionType === "select" ? (row.options ?? []) : null,
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
}

export type SubmitResult =
  | { ok: true; application: StoredApplication }
  | { ok: false; status: 400 | 409; message: string; questionId?: string };

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Checks the answers against the current questions and stores the application. `onStored` runs in
 * the same transaction (the route queues the notifications there), so either both are written or
 * neither is. Duplicates are refused by the unique indexes, never by a read before the write. An
 * event whose places are all taken still takes applications, on its waitlist.
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
  }: {
    scope: ApplicationScope;
    questions: readonly FormQuestion[];
    fields: (name: string) => unknown;
    now: Date;
    /** The hash of the applicant's private status link. */
    statusTokenHash?: string;
    /** Checks that need more than the form (a lookup elsewhere), once the answers are read; a refusal is a 400. */
    vet?: (answers: Record<string, string>) => Promise<{ message: string; questionId: string } | null>;
    onStored?: (tx: Transaction, application: StoredApplication) => Promise<void>;
  },
): Promise<SubmitResult> {
  const checked = checkAnswers(questions, fields);
  if (!checked.ok) return { ok: false, status: 400, message: checked.message, questionId: checked.questionId };
  const refused = await vet?.(checked.answers);
  if (refused) return { ok: false, status: 400, ...refused };

  const identity = applicantIdentity(questions, checked.answers);
  const responses = responsesByQuestion(questions, checked.answers);
  const values = { ...identity, responses, submittedAt: now, statusTokenHash };
  try {
    const application = await db.transaction(async (tx) => {
      const places = scope.kind === "event" ? await lockPlaces(tx, scope.eventId) : null;
      const status: ApplicationStatus = places && places !== "missing" && places.left < 1 ? "waitlist" : "pending";
      const [row] =
        scope.kind === "event"
          ? await tx
              .insert(eventApplications)
              .values({ ...values, status, eventId: scope.eventId })
              .returning({ id: eventApplications.id })
          : await tx.insert(applications).values(values).returning({ id: applications.id });
      const stored: StoredApplication = {
        id: row!.id,
        scope,
        ...identity,
        submittedAt: now,
        status,
        answers: questions.map((q) => ({ question: q.question, answer: checked.answers[q.id] ?? "" })),
      };
      await onStored?.(tx, stored);
      return stored;
    });
    return { ok: true, application };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, status: 409, message: DUPLICATE_MESSAGE[scope.kind] };
    throw error;
  }
}

export interface ApplicationCounts {
  group: { total: number; pending: number };
  event: { total: number; pending: number };
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
