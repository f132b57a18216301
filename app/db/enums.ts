/**
 * The enumerations of the data model, in a module free of database code so the browser bundle can
 * use them too. The tables (db/schema) build its CHECK constraints from these lists.
 */
/**
 * A question's type. The first three are the original's; vrchat_profile is a VRChat profile link,
 * checked and looked up when sent; vrchat_username and discord_handle are where an application's
 * VRChat username and Discord ID come from (before them, a question's text naming them did that).
 */
export const QUESTION_TYPES = [
  "text",
  "textarea",
  "select",
  "checkboxes",
  "yes_no",
  "number",
  "date",
  "agreement",
  "link",
  "vrchat_profile",
  "vrchat_username",
  "discord_handle",
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** A group application's statuses: the group has no capacity, so nobody waits for a place. */
export const GROUP_APPLICATION_STATUSES = ["pending", "approved", "rejected"] as const;
/**
 * An event application's: "waitlist" is one that came, or was moved, while the event's places were
 * all taken (see features/applications/capacity); "withdrawn" is one its applicant took back.
 */
export const APPLICATION_STATUSES = [...GROUP_APPLICATION_STATUSES, "waitlist", "withdrawn"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
/** Decided: the applicant has an answer (pending and waitlist still wait for one). */
export const isDecided = (status: ApplicationStatus) => status === "approved" || status === "rejected";
/** Still in line for a place, or holding one: what an applicant may withdraw. */
export const WITHDRAWABLE_STATUSES = ["pending", "waitlist", "approved"] as const satisfies readonly ApplicationStatus[];

/** What happens when an event's place frees: the first on its waitlist is approved, or moved to Pending for staff. */
export const WAITLIST_PROMOTIONS = ["pending", "automatic"] as const;
export type WaitlistPromotion = (typeof WAITLIST_PROMOTIONS)[number];

/** The staff's roles, most trusted first (see utils/roles.ts for what each may do). */
export const STAFF_ROLES = ["owner", "admin", "reviewer", "host"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/** 'member': an account that is not (or no longer) staff, kept for its history; the Sanctum refuses it. */
export const USER_ROLES = [...STAFF_ROLES, "member"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const APPLICATION_KINDS = ["group", "event"] as const;
export type ApplicationKind = (typeof APPLICATION_KINDS)[number];

/** How an event came from VRChat's calendar: the sync (public events), or an admin's import. */
export const VRCHAT_IMPORTS = ["sync", "admin"] as const;
export type VRChatImport = (typeof VRCHAT_IMPORTS)[number];

/** The regions VRChat opens an instance in (its `InstanceRegion`, without 'unknown'). */
export const INSTANCE_REGIONS = ["us", "use", "eu", "jp"] as const;
export type InstanceRegion = (typeof INSTANCE_REGIONS)[number];
/**
 * Who may enter an open event's group instance (VRChat's `groupAccessType`): the group's members
 * ('Group'), or anyone ('Group Public'). An event with applications opens to its role only.
 */
export const INSTANCE_ACCESS = ["members", "public"] as const;
export type InstanceAccess = (typeof INSTANCE_ACCESS)[number];
/**
 * Where an event's instance stands: being opened (a worker holds it), open, not reached (tried again
 * until the event ends), refused by VRChat (waits for 'Retry'), missed (the event ended first), closed.
 */
export const INSTANCE_STATES = ["opening", "open", "failed", "refused", "missed", "closed"] as const;
export type InstanceState = (typeof INSTANCE_STATES)[number];

/**
 * An event's own VRChat group role (the one its role-only instance admits): being made, made,
 * refused (waits for 'Retry' on the card), removed from its holders after the event, deleted.
 */
export const EVENT_ROLE_STATES = ["creating", "ready", "refused", "retiring", "deleted"] as const;
export type EventRoleState = (typeof EVENT_ROLE_STATES)[number];

/**
 * Where an approved attendee stands with the event's role: holds it, cannot be given it yet (not a
 * member of the group), or had it taken away (withdrawn, rejected, the event over).
 */
export const ATTENDEE_ROLES = ["given", "not_member", "removed"] as const;
export type AttendeeRole = (typeof ATTENDEE_ROLES)[number];

/** Whether an approved attendee came, marked after the event. */
export const ATTENDANCE = ["attended", "no_show"] as const;
export type Attendance = (typeof ATTENDANCE)[number];

/**
 * How an event repeats ('Repeats'): every week, every two weeks, or monthly on the same weekday (the
 * second Tuesday; a fifth one is the month's last). 'never' is a single event, not stored.
 */
export const SERIES_FREQUENCIES = ["weekly", "biweekly", "monthly"] as const;
export type SeriesFrequency = (typeof SERIES_FREQUENCIES)[number];

/**
 * How an application's VRChat account was linked: proven by the applicant (a code in its bio),
 * matched by name (their profile link under the name they gave, or the one join request by it), or
 * chosen by a staff member.
 */
export const VRCHAT_LINK_WAYS = ["proven", "name", "staff"] as const;
export type VRChatLinkWay = (typeof VRCHAT_LINK_WAYS)[number];
/**
 * A link that says who the person is: proven by its owner, or confirmed by a staff member. A name
 * match (or a pasted link) is a claim: a rule never acts on it, nor counts it as the same person.
 */
export const isConfirmedLink = (how: VRChatLinkWay | null | undefined) => how === "proven" || how === "staff";

/** Who may read an announcement: everyone (the site, a public VRChat post), or the group's members. */
export const ANNOUNCEMENT_AUDIENCES = ["everyone", "members"] as const;
export type AnnouncementAudience = (typeof ANNOUNCEMENT_AUDIENCES)[number];

/** Where an announcement goes: the site's news, a VRChat group post, the Discord announcement channel. */
export const ANNOUNCEMENT_PLACES = ["site", "vrchat", "discord"] as const;
export type AnnouncementPlace = (typeof ANNOUNCEMENT_PLACES)[number];

/**
 * Where an announcement stands in one place: waiting (to be sent, or for its time), published,
 * failed (the reason kept, waits for 'Try again'), removed (deleted here, taken down there), gone
 * (deleted there by someone else: never made again by itself).
 */
export const PLACE_STATES = ["waiting", "published", "failed", "removed", "gone"] as const;
export type PlaceState = (typeof PLACE_STATES)[number];

/** The pictures an announcement may carry, by the type their bytes show. */
export const PICTURE_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type PictureType = (typeof PICTURE_TYPES)[number];

/** Where a moderation act was made: the group in VRChat, the Discord server, or Dwell itself. */
export const MODERATION_PLACES = ["vrchat", "discord", "dwell"] as const;
export type ModerationPlace = (typeof MODERATION_PLACES)[number];

/**
 * What a moderation act did: removed someone (ban, kick), let them back (unban), silenced them for a
 * while (timeout), gave or took a role, decided their request to join, or kicked them from an instance.
 * Joins and leaves by the person themselves are not moderation and are not kept.
 */
export const MODERATION_KINDS = ["ban", "unban", "kick", "timeout", "role_add", "role_remove", "approve", "reject", "instance_kick"] as const;
export type ModerationKind = (typeof MODERATION_KINDS)[number];
/** The acts that take someone out of the group or the server: the tripwire's first count. */
export const REMOVING_KINDS = ["ban", "kick"] as const satisfies readonly ModerationKind[];

/** Which way a role link carries a role: from VRChat to Discord, from Discord to VRChat, or both. */
export const ROLE_LINK_DIRECTIONS = ["to_discord", "to_vrchat", "both"] as const;
export type RoleLinkDirection = (typeof ROLE_LINK_DIRECTIONS)[number];
/** A link's life: its holders being read (then the dry run is shown), filling in, kept in step, removed. */
export const ROLE_LINK_STATES = ["reading", "ready", "filling", "active", "removed"] as const;
export type RoleLinkState = (typeof ROLE_LINK_STATES)[number];
