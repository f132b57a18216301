/** How a ban reads, on the Bans page and on a banned person's cards, in the page's language. */
import { m } from "~/paraglide/messages";
import { formatShortDayUTC } from "~/utils/language";

export const dateText = formatShortDayUTC;

/** 'Banned on DATE by X: reason'. */
export const bannedLine = (ban: { bannedAt: string; bannedBy: string | null; reason: string | null }) =>
  m.bans_banned_line({ date: dateText(ban.bannedAt), by: ban.bannedBy ?? m.bans_vrchat(), reason: ban.reason ? m.bans_reason_suffix({ reason: ban.reason }) : "" });
