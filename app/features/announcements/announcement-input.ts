/**
 * What an announcement may hold, shared by the form (its limits) and the server (which checks
 * them): VRChat's and Discord's limits come from their descriptions of their APIs. VRChat asks only
 * for a title and a text (`minLength: 1`); Discord's message embed allows a title of 256 characters
 * and a description of 4,096, counted in the Markdown it is sent as.
 */
import type { AnnouncementAudience, AnnouncementPlace } from "~/db/enums";

export const ANNOUNCEMENT_LIMITS = {
  /** Discord's embed title. */
  title: 256,
  /** Discord's embed description. */
  discordText: 4_096,
  /** What the site keeps of a text in any language: well past what the places take. */
  text: 20_000,
} as const;

/** The announcements a page of /news shows. */
export const NEWS_PAGE_SIZE = 10;

/** One language's words, as the form sends them. */
export interface AnnouncementWords {
  title: string;
  text: string;
}

/** What the staff member chose in the form, read and checked. */
export interface AnnouncementChoice {
  texts: Record<string, AnnouncementWords>;
  audience: AnnouncementAudience;
  vrchatRoleIds: string[];
  notifyMembers: boolean;
  discordRoleId: string | null;
  places: AnnouncementPlace[];
  /** Null: kept as a draft. */
  publishAt: Date | null;
  eventId: string | null;
}

/** A place's state as the card shows it. */
export type PlaceView = {
  place: AnnouncementPlace;
  state: "waiting" | "scheduled" | "published" | "failed" | "removed" | "gone" | "draft";
  url: string | null;
  /** Why it waits or failed (a code and the service's words), read by `placeProblem`. */
  problem: string | null;
};
