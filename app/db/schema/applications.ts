/** The questions asked, the applications (the group's and events'), their decision messages and history. */
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import {
  APPLICATION_STATUSES,
  ATTENDANCE,
  ATTENDEE_ROLES,
  GROUP_APPLICATION_STATUSES,
  QUESTION_TYPES,
  VRCHAT_LINK_WAYS,
  type ApplicationStatus,
  type Attendance,
  type AttendeeRole,
  type VRChatLinkWay,
} from "../enums";
import type { QuestionSettings, QuestionTranslations, ShowIf, StoredAnswer } from "../json-shapes";
import { profiles } from "./accounts";
import { inList, timestamps } from "./columns";
import { events } from "./events";

const questionColumns = {
  id: uuid().primaryKey().defaultRandom(),
  question: text().notNull(),
  questionType: text().notNull().default("text"),
  options: jsonb().$type<string[]>(),
  required: boolean().notNull().default(true),
  orderIndex: integer().notNull().default(0),
  /** Shown under the question on the form. */
  helpText: text(),
  /** The type's own rules (limits, bounds, an agreement's statement). */
  settings: jsonb().$type<QuestionSettings>().notNull().default({}),
  /** Shown only when an earlier question's answer says so (null: always shown). */
  showIf: jsonb().$type<ShowIf>(),
  /** Its text, help, statement and options' labels in the site's other languages (see form-questions). */
  translations: jsonb().$type<QuestionTranslations>().notNull().default({}),
  ...timestamps,
};

export const applicationQuestions = pgTable(
  "application_questions",
  questionColumns,
  (table) => [
    check(
      "application_questions_type_check",
      sql`${table.questionType} in ${inList(QUESTION_TYPES)}`,
    ),
    check(
      "application_questions_options_check",
      sql`${table.options} is null or jsonb_typeof(${table.options}) = 'array'`,
    ),
    index("application_questions_order_idx").on(table.orderIndex),
  ],
);

export const eventApplicationQuestions = pgTable(
  "event_application_questions",
  {
    ...questionColumns,
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
  },
  (table) => [
    check(
      "event_application_questions_type_check",
      sql`${table.questionType} in ${inList(QUESTION_TYPES)}`,
    ),
    check(
      "event_application_questions_options_check",
      sql`${table.options} is null or (${table.questionType} in ('select', 'checkboxes') and jsonb_typeof(${table.options}) = 'array')`,
    ),
    index("event_application_questions_event_order_idx").on(table.eventId, table.orderIndex),
  ],
);

/**
 * Duplicates are refused by these indexes, not by a read before the write: the same VRChat
 * username (trimmed, any case) or the same Discord ID, once per scope. Empty values never collide.
 */
const normalized = (column: Parameters<typeof sql>[1]) => sql`lower(btrim(${column}))`;
const present = (column: Parameters<typeof sql>[1]) => sql`btrim(coalesce(${column}, '')) <> ''`;
/** A name used by spam (marked by an admin) does not keep a real person from applying with it. */
const claims = (column: Parameters<typeof sql>[1], spamAt: Parameters<typeof sql>[1]) =>
  sql`${present(column)} and ${spamAt} is null`;

/** What lets the applicant follow their application (see features/decisions). */
const applicantHearsBack = (table: string) => ({
  /** SHA-256 of the private status link's token; the token itself is never stored. */
  statusTokenHash: text().unique(`${table}_status_token_hash_key`),
  /** The decision message as written when the application was decided: what the applicant reads. */
  decisionMessage: text(),
  /** The language that message is written in (the applicant's, or the site's default when staff wrote none in theirs). */
  decisionMessageLanguage: text(),
  /** The applicant's account in the group's Discord server, as linked (a user id, and its name then). */
  discordUserId: text(),
  discordDisplayName: text(),
  /**
   * How the Discord account was linked (null: none is, or it was linked before this was kept): proven
   * by the applicant's own Discord sign-in, matched by their handle and name at a decision, or chosen
   * by a staff member. Only a proven or chosen one is acted on after an automatic decision.
   */
  discordLinkedHow: text().$type<VRChatLinkWay>(),
  /** How the VRChat account was linked (null: none is), and for a staff member's choice, their name. */
  vrchatLinkedHow: text().$type<VRChatLinkWay>(),
  vrchatLinkedBy: text(),
});

export const applications = pgTable(
  "applications",
  {
    id: uuid().primaryKey().defaultRandom(),
    vrchatUsername: text().notNull().default(""),
    discordId: text().notNull().default(""),
    /** The answers to the questions shown, in order, each with its question's id and text as asked. */
    answers: jsonb().$type<StoredAnswer[]>().notNull().default([]),
    /** The language the applicant applied in (their page's), for what they are sent back; null: the site's default. */
    language: text(),
    status: text().$type<ApplicationStatus>().notNull().default("pending"),
    submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp({ withTimezone: true }),
    /** Marked as spam by an admin: out of every list, count and export but the 'Spam' filter. */
    spamAt: timestamp({ withTimezone: true }),
    ...applicantHearsBack("applications"),
    /**
     * What became of the profile link the applicant gave, when it was not linked at once:
     * 'claimed' (VRChat names that account otherwise than the username given) or 'unchecked'
     * (VRChat could not be asked). Null when there was none, or it was linked.
     */
    vrchatProfileCheck: text().$type<"claimed" | "unchecked">(),
    /** The applicant's VRChat account (`usr_…`), as an admin linked it; a display name is not an identity. */
    vrchatUserId: text(),
    /** Its display name when it was linked, to show beside the id. */
    vrchatDisplayName: text(),
    /**
     * Rejected with 'block' (VRChat refuses their asking again): kept so that a rejection that could not
     * act yet (its account not confirmed) blocks once the account is confirmed.
     */
    rejectedWithBlock: boolean().notNull().default(false),
    ...timestamps,
  },
  (table) => [
    check("applications_status_check", sql`${table.status} in ${inList(GROUP_APPLICATION_STATUSES)}`),
    check("applications_vrchat_linked_how_check", sql`${table.vrchatLinkedHow} in ${inList(VRCHAT_LINK_WAYS)}`),
    check("applications_discord_linked_how_check", sql`${table.discordLinkedHow} in ${inList(VRCHAT_LINK_WAYS)}`),
    uniqueIndex("applications_vrchat_username_key")
      .on(normalized(table.vrchatUsername))
      .where(claims(table.vrchatUsername, table.spamAt)),
    uniqueIndex("applications_discord_id_key")
      .on(normalized(table.discordId))
      .where(claims(table.discordId, table.spamAt)),
    index("applications_submitted_at_idx").on(table.submittedAt.desc()),
    index("applications_status_idx").on(table.status),
    // A person's file gathers their applications by account.
    index("applications_vrchat_user_idx").on(table.vrchatUserId),
    index("applications_discord_user_idx").on(table.discordUserId),
  ],
);

export const eventApplications = pgTable(
  "event_applications",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    vrchatUsername: text().notNull().default(""),
    discordId: text().default(""),
    /** The answers to the questions shown, in order, each with its question's id and text as asked. */
    answers: jsonb().$type<StoredAnswer[]>().notNull().default([]),
    /** The language the applicant applied in (their page's), for what they are sent back; null: the site's default. */
    language: text(),
    status: text().$type<ApplicationStatus>().notNull().default("pending"),
    submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp({ withTimezone: true }),
    /** When its applicant withdrew it (status "withdrawn"). */
    withdrawnAt: timestamp({ withTimezone: true }),
    /** After the event: whether the approved attendee came. */
    attendance: text().$type<Attendance>(),
    /** Who marked it: read from the event's instance, or a staff member (whose mark wins). */
    attendanceSource: text().$type<"instance" | "staff">(),
    /** When the attendee was asked how the event was (once; flows/event-ratings). */
    ratingAskedAt: timestamp({ withTimezone: true }),
    notes: text(),
    spamAt: timestamp({ withTimezone: true }),
    ...applicantHearsBack("event_applications"),
    /** As for a group application: what became of a profile link that was not linked at once. */
    vrchatProfileCheck: text().$type<"claimed" | "unchecked">(),
    /** The attendee's VRChat account (`usr_…`), as the decision's rule or a staff member linked it. */
    vrchatUserId: text(),
    vrchatDisplayName: text(),
    /** Where the attendee stands with the event's VRChat role (see EVENT_ROLE_STATES). */
    eventRole: text().$type<AttendeeRole>(),
    /** When VRChat was last asked whether they may hold it (a non-member is asked again later). */
    eventRoleCheckedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    check("event_applications_attendance_check", sql`${table.attendance} in ${inList(ATTENDANCE)}`),
    check("event_applications_attendance_source_check", sql`${table.attendanceSource} in ('instance', 'staff')`),
    check("event_applications_vrchat_linked_how_check", sql`${table.vrchatLinkedHow} in ${inList(VRCHAT_LINK_WAYS)}`),
    check("event_applications_discord_linked_how_check", sql`${table.discordLinkedHow} in ${inList(VRCHAT_LINK_WAYS)}`),
    check("event_applications_event_role_check", sql`${table.eventRole} in ${inList(ATTENDEE_ROLES)}`),
    check(
      "event_applications_status_check",
      sql`${table.status} in ${inList(APPLICATION_STATUSES)}`,
    ),
    uniqueIndex("event_applications_vrchat_username_key")
      .on(table.eventId, normalized(table.vrchatUsername))
      .where(claims(table.vrchatUsername, table.spamAt)),
    uniqueIndex("event_applications_discord_id_key")
      .on(table.eventId, normalized(table.discordId))
      .where(claims(table.discordId, table.spamAt)),
    index("event_applications_event_submitted_idx").on(table.eventId, table.submittedAt.desc()),
    index("event_applications_event_status_idx").on(table.eventId, table.status),
    index("event_applications_vrchat_user_idx").on(table.vrchatUserId),
    index("event_applications_discord_user_idx").on(table.discordUserId),
  ],
);

export type QuestionRow = typeof applicationQuestions.$inferSelect;
export type EventQuestionRow = typeof eventApplicationQuestions.$inferSelect;

/**
 * The messages an applicant reads when their application is decided, one per outcome: for the
 * group's applications (`kind` group), for every event's (`kind` event, no event), and for one
 * event (`kind` event with its id), which falls back to every event's. Each in any of the site's
 * languages. No row: the catalogue's default text.
 */
export const decisionMessages = pgTable(
  "decision_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text().$type<"group" | "event">().notNull(),
    eventId: uuid().references(() => events.id, { onDelete: "cascade" }),
    outcome: text().$type<"approved" | "rejected">().notNull(),
    /** The language it is written in: one text per language (those written before languages existed: English). */
    language: text().notNull().default("en"),
    body: text().notNull(),
    ...timestamps,
  },
  (table) => [
    check("decision_messages_kind_check", sql`${table.kind} in ('group', 'event')`),
    check("decision_messages_outcome_check", sql`${table.outcome} in ('approved', 'rejected')`),
    check("decision_messages_event_check", sql`${table.kind} = 'event' or ${table.eventId} is null`),
    unique("decision_messages_key").on(table.kind, table.eventId, table.outcome, table.language).nullsNotDistinct(),
  ],
);

/** Who changed an application's status or notes, when, from what to what. */
export const applicationAuditLog = pgTable(
  "application_audit_log",
  {
    id: uuid().primaryKey().defaultRandom(),
    applicationKind: text().notNull(),
    applicationId: uuid().notNull(),
    actorId: uuid().references(() => profiles.id, { onDelete: "set null" }),
    /** Kept as written at the time, so the log still reads after an account is removed. */
    actorName: text().notNull(),
    field: text().notNull(),
    fromValue: text(),
    toValue: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("application_audit_log_kind_check", sql`${table.applicationKind} in ('group', 'event', 'join_request')`),
    check("application_audit_log_field_check", sql`${table.field} in ('status', 'notes', 'spam', 'vrchat', 'discord', 'attendance', 'answers')`),
    index("application_audit_log_application_idx").on(table.applicationId, table.createdAt),
  ],
);

/**
 * More private status links of an application, beside the one it was given at submission (a
 * reminder's DM carries one of its own): only their SHA-256, as for the first. Each works like it.
 */
export const statusLinks = pgTable(
  "status_links",
  {
    tokenHash: text().primaryKey(),
    applicationKind: text().$type<"group" | "event">().notNull(),
    applicationId: uuid().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("status_links_kind_check", sql`${table.applicationKind} in ('group', 'event')`),
    index("status_links_application_idx").on(table.applicationId),
  ],
);

/**
 * An applicant's proof that a VRChat account is theirs: a short code they put in its bio (or
 * status) for Dwell to read. One per application, for the account it names; a new code replaces
 * an expired one. `provenAt`: when Dwell read it there.
 */
export const vrchatProofs = pgTable(
  "vrchat_proofs",
  {
    applicationKind: text().$type<"group" | "event">().notNull(),
    applicationId: uuid().notNull(),
    vrchatUserId: text().notNull(),
    code: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    provenAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.applicationKind, table.applicationId] }),
    check("vrchat_proofs_kind_check", sql`${table.applicationKind} in ('group', 'event')`),
  ],
);

/**
 * What an attendee thought of the event ("How was it?"): 1 to 5, and a comment of at most 1,000
 * characters. One per application, changed in place for 7 days after the event. Never public.
 */
export const eventRatings = pgTable(
  "event_ratings",
  {
    applicationId: uuid()
      .primaryKey()
      .references(() => eventApplications.id, { onDelete: "cascade" }),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    rating: integer().notNull(),
    comment: text(),
    ...timestamps,
  },
  (table) => [
    index("event_ratings_event_id_idx").on(table.eventId),
    check("event_ratings_rating_check", sql`${table.rating} between 1 and 5`),
    check("event_ratings_comment_check", sql`${table.comment} is null or length(${table.comment}) <= 1000`),
  ],
);

/** People who asked not to be asked how an event was again: by their VRChat or Discord account, or their application. */
export const ratingOptOuts = pgTable("rating_opt_outs", {
  personKey: text().primaryKey(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
