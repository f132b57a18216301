/**
 * Each request's language on the server: the texts a page, an action's message or a redirect's
 * notice are written in (`m.<key>()` reads it). Set once per request in server/app.ts, from
 * the hints `chooseLanguage` weighs; outside a request (a worker, a script), the texts are in the
 * site's default language unless a caller names one (`m.<key>({}, { locale })`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { overwriteGetLocale, type Locale } from "~/paraglide/runtime";
import { chooseLanguage, readLanguageCookie } from "./language";

const requestLanguage = new AsyncLocalStorage<string>();
let defaultLanguage = "en";

overwriteGetLocale(() => (requestLanguage.getStore() ?? defaultLanguage) as Locale);

/** The site's default language (the first of SITE_LANGUAGES), for texts outside a request. */
export function setDefaultLanguage(language: string) {
  defaultLanguage = language;
}

/** Runs `work` (a request's handling, rendering included) in `language`. */
export function inLanguage<T>(language: string, work: () => T): T {
  return requestLanguage.run(language, work);
}

/** The language a request is answered in, of the languages the site offers. */
export function languageOfRequest(request: Request, offered: readonly string[]): string {
  if (offered.length < 2) return offered[0] ?? "en";
  return chooseLanguage(offered, {
    query: new URL(request.url).searchParams.get("lang"),
    cookie: readLanguageCookie(request.headers.get("cookie")),
    acceptLanguage: request.headers.get("accept-language"),
  });
}
