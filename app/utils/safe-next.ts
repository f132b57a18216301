const BASE = "http://site.invalid";

/**
 * A path of this site to send a browser back to, or `fallback`. The path is read as the browser will
 * read it (dot segments and backslashes resolved) before it is checked: `/.//evil.example` resolves
 * to `//evil.example`, another site, and is refused.
 */
export function sameSitePath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || /\p{Cc}/u.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE || url.pathname.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where to go after signing in: a path of this site's Sanctum, never another site. */
export function safeAdminPath(value: unknown): string {
  const path = sameSitePath(value, "/admin");
  if (!(path === "/admin" || path.startsWith("/admin/") || path.startsWith("/admin?"))) return "/admin";
  if (path.startsWith("/admin/sign-") || path.startsWith("/admin/forgot-password")) return "/admin";
  return path;
}
