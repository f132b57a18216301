/** How a ban reads, on the Bans page and on a banned person's cards. */

export function dateText(iso: string) {
  return new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
}

/** 'Banned on DATE by X: reason'. */
export const bannedLine = (ban: { bannedAt: string; bannedBy: string | null; reason: string | null }) =>
  `Banned on ${dateText(ban.bannedAt)} by ${ban.bannedBy ?? "VRChat"}${ban.reason ? `: ${ban.reason}` : ""}`;
