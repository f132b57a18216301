/**
 * The enumerations of the data model, in a module free of database code so the browser bundle can
 * use them too. schema.ts builds its CHECK constraints from these lists.
 */
/** vrchat_profile: a VRChat profile link, checked and looked up when sent (the group's form only). */
export const QUESTION_TYPES = ["text", "textarea", "select", "vrchat_profile"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const APPLICATION_STATUSES = ["pending", "approved", "rejected"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const USER_ROLES = ["admin", "member"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const APPLICATION_KINDS = ["group", "event"] as const;
export type ApplicationKind = (typeof APPLICATION_KINDS)[number];

/** How an event came from VRChat's calendar: the sync (public events), or an admin's import. */
export const VRCHAT_IMPORTS = ["sync", "admin"] as const;
export type VRChatImport = (typeof VRCHAT_IMPORTS)[number];
