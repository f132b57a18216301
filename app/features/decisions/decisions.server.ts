/**
 * What a decision does beyond the status change, in the transaction that makes it: the applicant's
 * decision message is written and kept with the application (their status page and a Discord
 * message then read the same words, whatever admins edit later). Also the private status links,
 * and the messages admins edit.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { isDecided, type ApplicationKind, type ApplicationStatus, type VRChatLinkWay } from "~/db/enums";
import { applications, decisionMessages, eventApplications, events, statusLinks } from "~/db/schema";
import { personLanguage, inLanguage } from "~/utils/language.server";
import {
  DECISION_MESSAGE_MAX_LENGTH,
  DECISION_OUTCOMES,
  defaultDecisionMessage,
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
  /** The language the message is written in, and the one the applicant applied in (null: the site's default). */
  messageLanguage: string | null;
  language: string | null;
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
          .select({ id: applications.id, status: applications.status, submittedAt: applications.submittedAt, reviewedAt: applications.reviewedAt, message: applications.decisionMessage, messageLanguage: applications.decisionMessageLanguage, language: applications.language, eventId: sql<string | null>`null` })
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
            messageLanguage: eventApplications.decisionMessageLanguage,
            language: eventApplications.language,
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
    messageLanguage: decided ? found.messageLanguage : null,
    language: found.language,
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
  /** The text in force here in a language: this scope's own, or what it falls back to. */
  body: string;
  /** The language `body` is written in: the one asked for, or (when staff wrote none in it) the site's default. */
  language: string;
  /** This scope has its own text in the language asked for (not a fallback). */
  own: boolean;
}

type StoredMessage = { outcome: DecisionOutcome; language: string; body: string };

async function storedMessages(db: Pick<Database, "select">, kind: MessageKind, eventId: string | null): Promise<StoredMessage[]> {
  return db
    .select({ outcome: decisionMessages.outcome, language: decisionMessages.language, body: decisionMessages.body })
    .from(decisionMessages)
    .where(and(eq(decisionMessages.kind, kind), eventId ? eq(decisionMessages.eventId, eventId) : isNull(decisionMessages.eventId)));
}

/**
 * The messages of a scope in `language`, with what each falls back to. From the nearest scope out
 * (an event's own, then every event's), each scope's text in `language`, else its text in the site's
 * default language (staff wrote the message but not its translation: the applicant reads it, told
 * so); with no text at all, the catalogue's default in `language`.
 */
export async function listDecisionMessages(db: Pick<Database, "select">, scope: MessageScope, language: string, defaultLanguage: string): Promise<EditableMessage[]> {
  const own = await storedMessages(db, scope.kind, scope.eventId ?? null);
  const scopes = scope.eventId ? [own, await storedMessages(db, "event", null)] : [own];
  return DECISION_OUTCOMES.map((outcome) => {
    for (const [index, rows] of scopes.entries()) {
      for (const wanted of [language, defaultLanguage]) {
        const row = rows.find((stored) => stored.outcome === outcome && stored.language === wanted);
        if (row) return { outcome, body: row.body, language: wanted, own: index === 0 && wanted === language };
      }
    }
    return { outcome, body: inLanguage(language, () => defaultDecisionMessage(scope.kind, outcome)), language, own: false };
  });
}

/** Saves a scope's message for one outcome in one language; an empty body goes back to the fallback. */
export async function saveDecisionMessage(db: Database, scope: MessageScope, outcome: DecisionOutcome, language: string, body: string) {
  const text = prefix(body.trim(), DECISION_MESSAGE_MAX_LENGTH);
  const eventId = scope.eventId ?? null;
  const where = and(
    eq(decisionMessages.kind, scope.kind),
    eq(decisionMessages.outcome, outcome),
    eq(decisionMessages.language, language),
    eventId ? eq(decisionMessages.eventId, eventId) : isNull(decisionMessages.eventId),
  );
  if (!text) {
    await db.delete(decisionMessages).where(where);
    return;
  }
  await db
    .insert(decisionMessages)
    .values({ kind: scope.kind, eventId, outcome, language, body: text })
    .onConflictDoUpdate({
      target: [decisionMessages.kind, decisionMessages.eventId, decisionMessages.outcome, decisionMessages.language],
      set: { body: text, updatedAt: new Date() },
    });
}

/** What `{event}` and `{date}` stand for in a language, and the review's messages in it. */
export interface DecisionWords {
  discordInvite: string | null;
  /** The event's title and time, or the group's. */
  event: string;
  date: string;
  /** The review's messages (listDecisionMessages of its scope) in this language. */
  templates: readonly EditableMessage[];
}

export interface DecisionContext {
  /** The words of this review's messages in a language (read once per language for all its decisions). */
  wordsIn(language: string): Promise<DecisionWords>;
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
  /** How each was linked (see VRCHAT_LINK_WAYS): an automatic decision acts only on a proven or confirmed one. */
  vrchatLinkedHow: VRChatLinkWay | null;
  discordLinkedHow: VRChatLinkWay | null;
  /** The language the applicant is written to in (the one they applied in, if the site still offers it). */
  language: string;
  /** The message the applicant reads (null while pending). */
  message: string | null;
  /** The same message for a Discord direct message: the applicant's own words in it cannot form Markdown. */
  directMessage: string | null;
}

/**
 * Called in the decision's transaction, after the status was written: keeps the applicant's message
 * with the application, in the language they applied in (cleared when it goes back to pending or to
 * the waitlist). Returns the linked accounts and the message, for the caller to act on.
 */
export async function applyDecision(tx: Executor, decision: Decision, context: DecisionContext): Promise<Decided> {
  const table = decision.kind === "event" ? eventApplications : applications;
  const [row] = await tx
    .select({
      username: table.vrchatUsername,
      vrchatUserId: table.vrchatUserId,
      vrchatLinkedHow: table.vrchatLinkedHow,
      discordUserId: table.discordUserId,
      discordLinkedHow: table.discordLinkedHow,
      language: table.language,
    })
    .from(table)
    .where(eq(table.id, decision.id));
  const language = personLanguage(row?.language ?? null);
  const nothing: Decided = { vrchatUserId: null, discordUserId: null, vrchatLinkedHow: null, discordLinkedHow: null, language, message: null, directMessage: null };
  if (!isDecided(decision.status)) {
    await tx.update(table).set({ decisionMessage: null, decisionMessageLanguage: null }).where(eq(table.id, decision.id));
    return nothing;
  }
  if (!row) return nothing;
  const words = await context.wordsIn(language);
  const template = words.templates.find((message) => message.outcome === decision.status)!;
  const values = { username: row.username, event: words.event, date: words.date, discordInvite: words.discordInvite };
  const note = context.note?.trim() ? `\n\n${context.note.trim()}` : "";
  // The placeholders' own fallbacks ('friend') in the message's language.
  const text = inLanguage(template.language, () => renderDecisionMessage(template.body, values)) + note;
  // What applicants and hosts wrote (their name, the event's title, a reason) cannot form Markdown, a masked link or a mention in Discord.
  const directMessage =
    inLanguage(template.language, () => renderDecisionMessage(template.body, { ...values, username: escapeDiscordMarkdown(row.username), event: escapeDiscordMarkdown(words.event) })) +
    (note ? escapeDiscordMarkdown(note) : "");
  await tx.update(table).set({ decisionMessage: text, decisionMessageLanguage: template.language }).where(eq(table.id, decision.id));
  const { vrchatUserId, vrchatLinkedHow, discordUserId, discordLinkedHow } = row;
  return { vrchatUserId, vrchatLinkedHow, discordUserId, discordLinkedHow, language, message: text, directMessage };
}

/** An event's own decision messages become another's (a series' occurrences): its own are replaced. */
export async function copyEventMessages(tx: Pick<Database, "select" | "insert" | "update" | "delete">, fromEventId: string, toEventId: string): Promise<void> {
  const messages = await storedMessages(tx, "event", fromEventId);
  await tx.delete(decisionMessages).where(and(eq(decisionMessages.kind, "event"), eq(decisionMessages.eventId, toEventId)));
  if (messages.length === 0) return;
  await tx.insert(decisionMessages).values(messages.map(({ outcome, language, body }) => ({ kind: "event" as const, eventId: toEventId, outcome, language, body })));
}
