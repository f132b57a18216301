/**
 * The site's own short cookies (not the sign-in session's, which better-auth sets). Where the site is
 * served over https (PUBLIC_URL), each is `__Host-` prefixed: the browser then keeps it only when it is
 * Secure, for the whole site (`Path=/`) and for this host alone (no `Domain`), so neither a page of
 * another subdomain nor a plain-http answer can set or replace it. Over plain http (a site on this
 * machine alone) the prefix cannot be used, and the plain name is.
 */
export interface SiteCookie {
  name: string;
  /** Sets it (an empty value with `maxAgeSeconds` 0 removes it). */
  set(value: string, maxAgeSeconds: number): string;
  read(request: Request): string | undefined;
}

export function siteCookie(publicUrl: string, name: string): SiteCookie {
  const secure = publicUrl.startsWith("https://");
  const full = secure ? `__Host-${name}` : name;
  return {
    name: full,
    set: (value, maxAgeSeconds) => `${full}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`,
    read(request) {
      const pair = (request.headers.get("Cookie") ?? "").split(/;\s*/).find((part) => part.startsWith(`${full}=`));
      if (!pair) return undefined;
      try {
        return decodeURIComponent(pair.slice(full.length + 1));
      } catch {
        return undefined;
      }
    },
  };
}
