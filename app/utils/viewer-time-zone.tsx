/**
 * The server renders dates in the viewer's time zone, which it learns from a cookie that a tiny
 * script in the page keeps equal to the browser's zone. On the very first visit (or after the viewer's
 * zone changes) the script sets the cookie and reloads once, before anything is painted, so the
 * server-rendered dates and the hydrated ones always agree. See docs/decisions/002-time-model.md.
 */
import { createContext, useContext, type ReactNode } from "react";

export const TIME_ZONE_COOKIE = "tz";
export const DEFAULT_TIME_ZONE = "UTC";

export function readTimeZoneCookie(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === TIME_ZONE_COOKIE) {
      try {
        return decodeURIComponent(rest.join("="));
      } catch {
        // A malformed escape: treat as no cookie.
        return null;
      }
    }
  }
  return null;
}

/**
 * Runs in <head> before the body. `renderedZone` is the zone the server used for this page; when
 * the browser's differs, the script stores it and reloads, at most once per zone and browser
 * session (a zone this server cannot use must not cause a reload loop). A browser that refuses
 * cookies never reloads and sees UTC.
 */
export function timeZoneHintScript(renderedZone: string): string {
  const rendered = JSON.stringify(renderedZone).replace(/</g, "\\u003c");
  return `(function(){try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(!z)return;var k="${TIME_ZONE_COOKIE}=";var m=document.cookie.match(/(?:^|;\\s*)${TIME_ZONE_COOKIE}=([^;]*)/);if(!m||decodeURIComponent(m[1])!==z)document.cookie=k+encodeURIComponent(z)+";path=/;max-age=31536000;samesite=lax"+(location.protocol==="https:"?";secure":"");if(z===${rendered}||document.cookie.indexOf(k+encodeURIComponent(z))===-1)return;if(sessionStorage.getItem("dwell-tz-reload")===z)return;sessionStorage.setItem("dwell-tz-reload",z);location.reload()}catch(e){}})();`;
}

const ViewerTimeZoneContext = createContext<string>(DEFAULT_TIME_ZONE);

export function ViewerTimeZoneProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <ViewerTimeZoneContext value={timeZone}>{children}</ViewerTimeZoneContext>;
}

/** The IANA zone the viewer's dates are shown in (UTC until the browser has told us). */
export function useViewerTimeZone(): string {
  return useContext(ViewerTimeZoneContext);
}
