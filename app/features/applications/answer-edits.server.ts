/**
 * An applicant's edit of their own answers while their application waits (Pending, or Waitlisted):
 * the answers, the name and Discord ID taken from them, and the VRChat link they make, written
 * together with the history line the card shows. A decision made meanwhile wins.
 */
import { and, desc, eq, gt, inArray } from "drizzle-orm";
import { isUniqueViolation, type Database } from "~/db/db.server";
import type { ApplicationKind, VRChatLinkWay } from "~/db/enums";
import { applicationAuditLog, applications, eventApplications } from "~/db/schema";
import { answerText, type StoredAnswer } from "~/utils/form-questions";
import { truncate } from "~/utils/text";
import type { ProfileFinding } from "./applications.server";
import { APPLICANT_ACTOR } from "~/utils/actors";

/** Who the history names for an edit from the status page. */

/** The statuses in which an applicant may still change their answers. */
export const EDITABLE_STATUSES = ["pending", "waitlist"] as const;

export interface EditableApplication {
  id: string;
  kind: ApplicationKind;
  status: string;
  answers: StoredAnswer[];
  vrchatUsername: string;
  vrchatUserId: string | null;
  vrchatDisplayName: string | null;
  vrchatLinkedHow: VRChatLinkWay | null;
}

const tableOf = (kind: "group" | "event") => (kind === "event" ? eventApplications : applications);

/** The application as its edit starts from (null: gone, or marked as spam). */
export async function readEditable(db: Pick<Database, "select">, kind: "group" | "event", id: string): Promise<EditableApplication | null> {
  const table = tableOf(kind);
  const [row] = await db
    .select({
      id: table.id,
      status: table.status,
      answers: table.answers,
      vrchatUsername: table.vrchatUsername,
      vrchatUserId: table.vrchatUserId,
      vrchatDisplayName: table.vrchatDisplayName,
      vrchatLinkedHow: table.vrchatLinkedHow,
      spamAt: table.spamAt,
    })
    .from(table)
    .where(eq(table.id, id));
  if (!row || row.spamAt) return null;
  const { spamAt: _spam, ...rest } = row;
  return { ...rest, kind };
}

/** The answers that differ between two versions, each as 'Question: answer' (the history's before and after). */
export function changedAnswers(before: readonly StoredAnswer[], after: readonly StoredAnswer[]) {
  const key = (answer: StoredAnswer) => answer.questionId ?? `text:${answer.question}`;
  const old = new Map(before.map((answer) => [key(answer), answer]));
  const now = new Map(after.map((answer) => [key(answer), answer]));
  const keys = [...new Set([...before.map(key), ...after.map(key)])];
  const line = (answer: StoredAnswer | undefined, fallback: StoredAnswer) => `${(answer ?? fallback).question}: ${answer ? answerText(answer.value) || "—" : "(not asked)"}`;
  const changed = keys.filter((one) => answerText(old.get(one)?.value) !== answerText(now.get(one)?.value) || old.has(one) !== now.has(one));
  return {
    count: changed.length,
    before: changed.map((one) => line(old.get(one), now.get(one)!)).join("\n"),
    after: changed.map((one) => line(now.get(one), old.get(one)!)).join("\n"),
  };
}

/** What the VRChat link becomes with the new answers: kept, replaced by a finding, or dropped. */
export type LinkChange = { kind: "keep" } | { kind: "finding"; finding: ProfileFinding } | { kind: "drop" };

function linkColumns(change: LinkChange) {
  if (change.kind === "keep") return {};
  if (change.kind === "drop") return { vrchatUserId: null, vrchatDisplayName: null, vrchatLinkedHow: null, vrchatLinkedBy: null, vrchatProfileCheck: null };
  const { finding } = change;
  if (finding.check === "confirmed") {
    return { vrchatUserId: finding.account.userId, vrchatDisplayName: finding.account.displayName, vrchatLinkedHow: "name" as const, vrchatLinkedBy: null, vrchatProfileCheck: null };
  }
  return { vrchatUserId: null, vrchatDisplayName: null, vrchatLinkedHow: null, vrchatLinkedBy: null, vrchatProfileCheck: finding.check };
}

/** Edits an applicant may make to one application in an hour: every one is kept in the history. */
export const EDITS_PER_HOUR = 10;
const HOUR_MS = 60 * 60_000;

/** Whether another edit may be made now: null, or when the oldest of the hour's edits leaves it (UTC). */
export async function nextEditAllowedAt(db: Pick<Database, "select">, application: { kind: "group" | "event"; id: string }, now: Date): Promise<Date | null> {
  const edits = await db
    .select({ at: applicationAuditLog.createdAt })
    .from(applicationAuditLog)
    .where(
      and(
        eq(applicationAuditLog.applicationKind, application.kind),
        eq(applicationAuditLog.applicationId, application.id),
        eq(applicationAuditLog.field, "answers"),
        eq(applicationAuditLog.actorName, APPLICANT_ACTOR),
        gt(applicationAuditLog.createdAt, new Date(now.getTime() - HOUR_MS)),
      ),
    )
    .orderBy(desc(applicationAuditLog.createdAt))
    .limit(EDITS_PER_HOUR);
  return edits.length < EDITS_PER_HOUR ? null : new Date(edits.at(-1)!.at.getTime() + HOUR_MS);
}

export type AnswerEdit =
  | { kind: "saved"; changed: number }
  | { kind: "unchanged" }
  /** EDITS_PER_HOUR reached: nothing was written; another edit may be made at `allowedAt`. */
  | { kind: "too-many"; allowedAt: Date }
  /** Decided (or withdrawn) meanwhile: the decision wins, nothing was written. */
  | { kind: "decided" }
  | { kind: "duplicate" };

/**
 * Writes an edit of the answers if the application still waits (checked under a row lock, so a
 * decision at the same moment wins), with one history line; `onSaved` runs in the same transaction
 * (the flow queues the channels' notice there). An edit that changes nothing writes nothing.
 */
export async function saveAnswerEdit(
  db: Database,
  application: { kind: "group" | "event"; id: string },
  edit: { answers: StoredAnswer[]; vrchatUsername: string; discordId: string; link: LinkChange },
  now: Date,
  onSaved?: (tx: Parameters<Parameters<Database["transaction"]>[0]>[0]) => Promise<void>,
): Promise<AnswerEdit> {
  const table = tableOf(application.kind);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.select({ status: table.status, answers: table.answers }).from(table).where(eq(table.id, application.id)).for("update");
      if (!row || !(EDITABLE_STATUSES as readonly string[]).includes(row.status)) return { kind: "decided" } as const;
      const changed = changedAnswers(row.answers, edit.answers);
      if (changed.count === 0) return { kind: "unchanged" } as const;
      // Counted under the row's lock: edits sent at once cannot pass the limit together.
      const allowedAt = await nextEditAllowedAt(tx, application, now);
      if (allowedAt) return { kind: "too-many", allowedAt } as const;
      await tx
        .update(table)
        .set({ answers: edit.answers, vrchatUsername: edit.vrchatUsername, discordId: edit.discordId, ...linkColumns(edit.link), updatedAt: now })
        .where(and(eq(table.id, application.id), inArray(table.status, [...EDITABLE_STATUSES])));
      await tx.insert(applicationAuditLog).values({
        applicationKind: application.kind,
        applicationId: application.id,
        actorName: APPLICANT_ACTOR,
        field: "answers",
        fromValue: truncate(changed.before, 20_000),
        toValue: truncate(changed.after, 20_000),
        createdAt: now,
      });
      await onSaved?.(tx);
      return { kind: "saved", changed: changed.count } as const;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { kind: "duplicate" };
    throw error;
  }
}
