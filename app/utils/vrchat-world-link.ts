import { vrchatWebsiteUrl } from "./vrchat-profile-link";

/** A VRChat world id: `wrld_` and a UUID. */
export const VRCHAT_WORLD_ID = /^wrld_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A world id from an id or a world's link on VRChat's website (`https://vrchat.com/home/world/wrld_…`,
 * also its launch link `…/home/launch?worldId=wrld_…`); null otherwise.
 */
export function vrchatWorldIdFrom(text: string): string | null {
  const trimmed = text.trim();
  if (VRCHAT_WORLD_ID.test(trimmed.toLowerCase())) return trimmed.toLowerCase();
  const url = vrchatWebsiteUrl(trimmed);
  if (!url) return null;
  const fromPath = /^\/home\/world\/([^/]+)(?:\/.*)?$/.exec(url.pathname)?.[1];
  const candidate = (fromPath ?? (url.pathname.startsWith("/home/launch") ? url.searchParams.get("worldId") : null))?.toLowerCase();
  return candidate && VRCHAT_WORLD_ID.test(candidate) ? candidate : null;
}

/** The world's page on VRChat's website. */
export const worldPageUrl = (worldId: string) => `https://vrchat.com/home/world/${worldId}`;
