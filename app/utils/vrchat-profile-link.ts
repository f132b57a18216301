/**
 * A VRChat user id: `usr_` and a UUID, or a legacy player's old id of ten letters and digits
 * (`8JoV9XEdpo`), which VRChat documents beside the new form and never changes.
 */
export const VRCHAT_USER_ID = /^(?:usr_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9]{10})$/;

/** An address on VRChat's website (https, vrchat.com), or null. */
export function vrchatWebsiteUrl(text: string): URL | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  return url.protocol === "https:" && /^(www\.)?vrchat\.com$/i.test(url.hostname) ? url : null;
}

/** A user id from an id or a profile link (`https://vrchat.com/home/user/usr_…`); null otherwise. */
export function vrchatUserIdFrom(text: string): string | null {
  const trimmed = text.trim();
  if (VRCHAT_USER_ID.test(trimmed)) return trimmed;
  const url = vrchatWebsiteUrl(trimmed);
  if (!url) return null;
  const match = /^\/home\/user\/([^/]+)\/?$/.exec(url.pathname);
  return match && VRCHAT_USER_ID.test(match[1]!) ? match[1]! : null;
}
