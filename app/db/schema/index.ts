/**
 * The tables of spec section 3, with the original's table and column names (camelCase here,
 * snake_case in the database), so a group can move its rows over with a plain data dump.
 */
export * from "./accounts";
export * from "./announcements";
export * from "./applications";
export * from "./events";
export * from "./operations";
export * from "./moderation";
export * from "./people";
export * from "./screening";
export * from "./settings";
export * from "./vrchat";
export {
  APPLICATION_STATUSES,
  QUESTION_TYPES,
  USER_ROLES,
  type ApplicationStatus,
  type QuestionType,
  type UserRole,
} from "../enums";
