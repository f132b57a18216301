/** The Sanctum's accounts (better-auth's tables), the team, its invitations and security settings. */
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { STAFF_ROLES, USER_ROLES, type StaffRole, type UserRole } from "../enums";
import { inList, timestamps } from "./columns";

/**
 * The accounts of the Sanctum (spec: profiles). better-auth keeps its users here: `username` is its
 * `name`, and `role` decides what they may do (utils/roles.ts). There is no public sign-up: the
 * first owner is made with `npm run user:create`, the rest of the team by an owner's invitation.
 */
export const profiles = pgTable(
  "profiles",
  {
    id: uuid().primaryKey().defaultRandom(),
    username: text().notNull(),
    email: text().notNull().unique(),
    emailVerified: boolean().notNull().default(false),
    image: text(),
    role: text().$type<UserRole>().notNull().default("member"),
    /** Signed in with a passphrase the policy no longer allows: the dashboard asks for a new one. */
    passwordChangeDue: boolean().notNull().default(false),
    /** Signing in takes a code from an authenticator app (or a recovery code) after the passphrase. */
    twoFactorEnabled: boolean().notNull().default(false),
    lastSignInAt: timestamp({ withTimezone: true }),
    /** Their own Discord account (a user id), as an owner set it or they linked it: who they are in Discord. */
    discordUserId: text().unique("profiles_discord_user_id_key"),
    /** The language the Sanctum speaks to them in (set on the Security page); null: the site's default. */
    language: text(),
    /** Suspended by the tripwire (too many bans or role removals at once): the Sanctum refuses them until an owner lifts it. */
    suspendedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [check("profiles_role_check", sql`${table.role} in ${inList(USER_ROLES)}`)],
);

/** The message each application has in the Discord review channel, to edit once it is decided. */
export const discordReviewMessages = pgTable(
  "discord_review_messages",
  {
    applicationKind: text().$type<"group" | "event">().notNull(),
    applicationId: uuid().notNull(),
    channelId: text().notNull(),
    messageId: text().notNull(),
    /** The application as posted: an edit keeps it and changes only the outcome and the buttons. */
    embed: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.applicationKind, table.applicationId] })],
);

/** An owner's invitation to join the team: a single-use link, its token kept only as a hash. */
export const teamInvitations = pgTable(
  "team_invitations",
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    role: text().$type<StaffRole>().notNull(),
    tokenHash: text().notNull().unique("team_invitations_token_hash_key"),
    invitedBy: uuid().references(() => profiles.id, { onDelete: "set null" }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** When it was used (or withdrawn): it opens nothing after. */
    closedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [check("team_invitations_role_check", sql`${table.role} in ${inList(STAFF_ROLES)}`)],
);

/** What changed in the team, and who changed it: invitations, joins, roles, removals, settings. */
export const teamHistory = pgTable(
  "team_history",
  {
    id: uuid().primaryKey().defaultRandom(),
    actorId: uuid().references(() => profiles.id, { onDelete: "set null" }),
    actorName: text().notNull(),
    /** What happened, in words ("invited sky@dwell.example as Reviewer"). */
    change: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("team_history_created_at_idx").on(table.createdAt.desc())],
);

/** A role's security settings, set by an owner on the Team page. */
export const rolePolicies = pgTable(
  "role_policies",
  {
    role: text().$type<StaffRole>().primaryKey(),
    requireTwoFactor: boolean().notNull().default(false),
    ...timestamps,
  },
  (table) => [check("role_policies_role_check", sql`${table.role} in ${inList(STAFF_ROLES)}`)],
);

/**
 * The owners' settings for the whole site, one row (made at its first change): what Dwell may do
 * with the group's authority beyond what each decision says.
 */
export const siteSettings = pgTable(
  "site_settings",
  {
    id: integer().primaryKey().default(1),
    /** An event approval by a role that may decide group applications invites a non-member to the group. */
    eventApprovalInvites: boolean().notNull().default(false),
    /** A group application is approved only once its VRChat account is proven (a bio code). */
    groupRequiresProof: boolean().notNull().default(false),
    /** Applicants may edit their group application's answers while it is pending. */
    groupApplicantEdits: boolean().notNull().default(true),
    /** A join request with no application: left for staff, or decided by the screening rules. */
    joinRequestsByRules: boolean().notNull().default(false),
    /** A banned person's new application is rejected as it arrives (else flagged for staff). */
    rejectBanned: boolean().notNull().default(false),
    /** The Discord roles an announcement may mention (the owner's short list; none: no mention at all). */
    announceRoleIds: jsonb().$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (table) => [check("site_settings_one_row_check", sql`${table.id} = 1`)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    token: text().notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ipAddress: text(),
    userAgent: text(),
    ...timestamps,
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    ...timestamps,
  },
  (table) => [index("accounts_user_idx").on(table.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ...timestamps,
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

/**
 * An account's authenticator secret and recovery codes (better-auth's two-factor plugin), both
 * encrypted with the auth secret. `verified` is false between enrolment and its first code.
 */
export const twoFactors = pgTable(
  "two_factors",
  {
    id: uuid().primaryKey().defaultRandom(),
    secret: text().notNull(),
    backupCodes: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    verified: boolean().notNull().default(true),
    failedVerificationCount: integer().notNull().default(0),
    lockedUntil: timestamp({ withTimezone: true }),
    /** The 30-second step of the last authenticator code accepted: a code of that step or earlier is refused. */
    lastTotpStep: integer(),
  },
  (table) => [uniqueIndex("two_factors_user_id_key").on(table.userId)],
);

/**
 * Failed sign-ins, per (account, client) and per client: each further attempt past the free ones
 * waits longer. Only failures count, so nobody can lock an admin out from elsewhere.
 */
export const signInFailures = pgTable("sign_in_failures", {
  key: text().primaryKey(),
  failures: integer().notNull(),
  lastFailedAt: timestamp({ withTimezone: true }).notNull(),
});
