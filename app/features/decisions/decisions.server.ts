/**
 * What a decision does beyond the status change, in the transaction that makes it: the applicant's
 * decision message is written and kept with the application (their status page and a Discord
 * message then read the same words, whatever admins edit later). Also the private status links,
 * and the messages admins edit.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { isDecided, type ApplicationKind, type ApplicationStatus } from "~/db/enums";
import { applications, decisionMessages, eventApplications, events, statusLinks } from "~/db/schema";
import {
  DECISION_MESSAGE_MAX_LENGTH,
  DEFAULT_DECISION_MESSAGES,
  renderDecisionMessage,
  type DecisionOutcome,
  type MessageKind,
  STATUS_LINK_DAYS,
} from "./decision-messages";
import { escapeDiscordMarkdown, prefix } from "~/utils/text";

type Executor = Pick<Database, "select" | "insert" | "update">;


/** 256 random bits, URL-safe; only its SHA-256 is stored. */
export function newStatusToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashStatusToken(token) };
}

export function hashStatusToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface ApplicationStatusView {
  kind: ApplicationKind;
  /** The event's title, for an event application (null once the event is gone). */
  eventTitle: string | null;
  status: ApplicationStatus;
  submittedAt: Date;
  decidedAt: Date | null;
  message: string | null;
  /** The application's id, and its event's (for the server: never shown). */
  id: string;
  eventId: string | null;
}

/** Which application a status token opens: by the link it was given at submission, or a later one (status_links). */
async function applicationOfToken(db: Database, hash: string): Promise<{ kind: ApplicationKind; id: string } | null> {
  const [group] = await db.select({ id: applications.id }).from(applications).where(eq(applications.statusTokenHash, hash));
  if (group) return { kind: "group", id: group.id };
  const [event] = await db.select({ id: eventApplications.id }).from(eventApplications).where(eq(eventApplications.statusTokenHash, hash));
  if (event) return { kind: "event", id: event.id };
  const [more] = await db.select({ kind: statusLinks.applicationKind, id: statusLinks.applicationId }).from(statusLinks).where(eq(statusLinks.tokenHash, hash));
  return more ?? null;
}

/**
 * What the status page shows for a token: never the answers or notes. Null for an unknown token,
 * one of an application marked as spam, and one whose decision is more than 90 days old.
 */
export async function getApplicationStatus(db: Database, token: string, now: Date): Promise<ApplicationStatusView | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const opened = await applicationOfToken(db, hashStatusToken(token));
  if (!opened) return null;
  const [group] =
    opened.kind === "group"
      ? await db
          .select({ id: applications.id, status: applications.status, submittedAt: applications.submittedAt, reviewedAt: applications.reviewedAt, message: applications.decisionMessage, eventId: sql<string | null>`null` })
          .from(applications)
          .where(and(eq(applications.id, opened.id), isNull(applications.spamAt)))
      : [];
  const [event] =
    opened.kind === "event"
      ? await db
          .select({
            id: eventApplications.id,
            status: eventApplications.status,
            submittedAt: eventApplications.submittedAt,
            // A withdrawal is the applicant's own last word: its link lasts from then.
            reviewedAt: sql<Date | null>`coalesce(${eventApplications.withdrawnAt}, ${eventApplications.reviewedAt})`.mapWith(eventApplications.reviewedAt),
            message: eventApplications.decisionMessage,
            eventTitle: events.title,
            eventId: eventApplications.eventId,
          })
          .from(eventApplications)
          .leftJoin(events, eq(events.id, eventApplications.eventId))
          .where(and(eq(eventApplications.id, opened.id), isNull(eventApplications.spamAt)))
      : [];
  const found = group ? { ...group, kind: "group" as const, eventTitle: null } : event ? { ...event, kind: "event" as const } : null;
  if (!found) return null;
  const decided = isDecided(found.status) || found.status === "withdrawn";
  if (decided && found.reviewedAt && now.getTime() - found.reviewedAt.getTime() > STATUS_LINK_DAYS * 24 * 60 * 60 * 1000) return null;
  return {
    kind: found.kind,
    eventTitle: found.eventTitle,
    status: found.status,
    submittedAt: found.submittedAt,
    decidedAt: decided ? found.reviewedAt : null,
    message: decided ? found.message : null,
    id: found.id,
    eventId: found.eventId,
  };
}

/**
 * A fresh private status link for an application, beside its first (which stays valid): for a
 * message that must carry the way back to it (a reminder). Only its hash is kept.
 */
export async function mintStatusLink(tx: Pick<Database, "insert">, application: { kind: ApplicationKind; id: string }): Promise<string> {
  const { token, hash } = newStatusToken();
  await tx.insert(statusLinks).values({ tokenHash: hash, applicationKind: application.kind, applicationId: application.id });
  return token;
}

export interface MessageScope {
  kind: MessageKind;
  /** One event's own messages; without it, the group's (kind group) or every event's (kind event). */
  eventId?: string;
}

export interface EditableMessage {
  outcome: DecisionOutcome;
  /** The text in force here: this scope's own, or what it falls back to. */
  body: string;
  /** This scope has its own text (not the fallback). */
  own: boolean;
}

async function storedMessages(db: Executor, kind: MessageKind, eventId: string | null) {
  return db
    .select({ outcome: decisionMessages.outcome, body: decisionMessages.body })
    .from(decisionMessages)
    .where(and(eq(decisionMessages.kind, kind), eventId ? eq(decisionMessages.eventId, eventId) : isNull(decisionMessages.eventId)));
}

/** The messages of a scope, with what each falls back to (an event's: every event's, then the default). */
export async function listDecisionMessages(db: Executor, scope: MessageScope): Promise<EditableMessage[]> {
  const own = await storedMessages(db, scope.kind, scope.eventId ?? null);
  const fallback = scope.eventId ? await storedMessages(db, "event", null) : [];
  return (["approved", "rejected"] as const).map((outcome) => {
    const mine = own.find((row) => row.outcome === outcome);
    if (mine) return { outcome, body: mine.body, own: true };
    const inherited = fallback.find((row) => row.outcome === outcome);
    return { outcome, body: inherited?.body ?? DEFAULT_DECISION_MESSAGES[scope.kind][outcome], own: false };
  });
}

/** Saves a scope's message for one outcome; an empty body goes back to the fallback. */
export async function saveDecisionMessage(db: Database, scope: MessageScope, outcome: DecisionOutcome, body: string) {
  const text = prefix(body.trim(), DECISION_MESSAGE_MAX_LENGTH);
  const eventId = scope.eventId ?? null;
  const where = and(
    eq(decisionMessages.kind, scope.kind),
    eq(decisionMessages.outcome, outcome),
    eventId ? eq(decisionMessages.eventId, eventId) : isNull(decisionMessages.eventId),
  );
  if (!text) {
    await db.delete(decisionMessages).where(where);
    return;
  }
  await db
    .insert(decisionMessages)
    .values({ kind: scope.kind, eventId, outcome, body: text })
    .onConflictDoUpdate({ target: [decisionMessages.kind, decisionMessages.eventId, decisionMessages.outcome], set: { body: text, updatedAt: new Date() } });
}

export interface DecisionContext {
  discordInvite: string | null;
  /** What `{event}` and `{date}` stand for in this review: the event's title and time, or the group's. */
  event: string;
  date: string;
  /** The review's messages (listDecisionMessages of its scope), read once for all its decisions. */
  templates: readonly EditableMessage[];
  /** A reason the decider gave (Discord's 'Reject' asks for one): it follows the message. */
  note?: string | null;
}

export interface Decision {
  kind: ApplicationKind;
  id: string;
  status: ApplicationStatus;
}

export interface Decided {
  /** The VRChat account linked to a group application. */
  vrchatUserId: string | null;
  /** The Discord account linked to the application. */
  discordUserId: string | null;
  /** The message the applicant reads (null while pending). */
  message: string | null;
  /** The same message for a Discord direct message: the applicant's own words in it cannot form Markdown. */
  directMessage: string | null;
}

/**
 * Called in the decision's transaction, after the status was written: keeps the applicant's message
 * with the application (cleared when it goes back to pending or to the waitlist). Returns the linked accounts and the
 * message, for the caller to act on.
 */
export async function applyDecision(tx: Executor, decision: Decision, context: DecisionContext): Promise<Decided> {
  const table = decision.kind === "event" ? eventApplications : applications;
  const nothing: Decided = { vrchatUserId: null, discordUserId: null, message: null, directMessage: null };
  if (!isDecided(decision.status)) {
    await tx.update(table).set({ decisionMessage: null }).where(eq(table.id, decision.id));
    return nothing;
  }
  const [row] =
    decision.kind === "event"
      ? await tx
          .select({
            username: eventApplications.vrchatUsername,
            vrchatUserId: eventApplications.vrchatUserId,
            discordUserId: eventApplications.discordUserId,
          })
          .from(eventApplications)
          .where(eq(eventApplications.id, decision.id))
      : await tx
          .select({
            username: applications.vrchatUsername,
            vrchatUserId: applications.vrchatUserId,
            discordUserId: applications.discordUserId,
          })
          .from(applications)
          .where(eq(applications.id, decision.id));
  if (!row) return nothing;
  const template = context.templates.find((message) => message.outcome === decision.status)!.body;
  const values = { username: row.username, event: context.event, date: context.date, discordInvite: context.discordInvite };
  const note = context.note?.trim() ? `\n\n${context.note.trim()}` : "";
  const text = renderDecisionMessage(template, values) + note;
  // What applicants and hosts wrote (their name, the event's title, a reason) cannot form Markdown, a masked link or a mention in Discord.
  const directMessage = renderDecisionMessage(template, { ...values, username: escapeDiscordMarkdown(row.username), event: escapeDiscordMarkdown(context.event) }) + (note ? escapeDiscordMarkdown(note) : "");
  await tx.update(table).set({ decisionMessage: text }).where(eq(table.id, decision.id));
  return { vrchatUserId: row.vrchatUserId, discordUserId: row.discordUserId, message: text, directMessage };
}

/** An event's own decision messages become another's (a series' occurrences): its own are replaced. */
export async function copyEventMessages(tx: Pick<Database, "select" | "insert" | "update" | "delete">, fromEventId: string, toEventId: string): Promise<void> {
  const messages = await storedMessages(tx, "event", fromEventId);
  await tx.delete(decisionMessages).where(and(eq(decisionMessages.kind, "event"), eq(decisionMessages.eventId, toEventId)));
  if (messages.length === 0) return;
  await tx.insert(decisionMessages).values(messages.map(({ outcome, body }) => ({ kind: "event" as const, eventId: toEventId, outcome, body })));
}
