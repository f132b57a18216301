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
let siteLanguages: readonly string[] = ["en"];

overwriteGetLocale(() => (requestLanguage.getStore() ?? siteLanguages[0]) as Locale);

/** The languages the site offers (SITE_LANGUAGES), the first its default: set as the server starts. */
export function setSiteLanguages(languages: readonly string[]) {
  if (languages.length > 0) siteLanguages = [...languages];
}

/** The site's default language, for texts outside a request. */
export const defaultLanguage = () => siteLanguages[0]!;

/**
 * The language to write to a person in: the one an applicant applied in, or a staff member chose,
 * if the site still offers it; else the default.
 */
export function personLanguage(stored: string | null | undefined): string {
  return stored && siteLanguages.includes(stored) ? stored : siteLanguages[0]!;
}

/** Runs `work` (a request's handling, rendering included) in `language`. */
export function inLanguage<T>(language: string, work: () => T): T {
  return requestLanguage.run(language, work);
}

/**
 * Runs `work` as no request's: in the site's default language. A worker's run that a request woke
 * (its timer set in the request) would otherwise speak the language of whoever woke it.
 */
export function outsideRequest<T>(work: () => T): T {
  return requestLanguage.exit(work);
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

/**
 * An applicant's own pages (their status page, its edit page) speak the language they applied in,
 * unless the visitor chose one (`?lang=` or the menu's cookie): where the request would be answered
 * in another, the address of the same page in theirs. Null: answer as it is.
 */
export function applicantPageAddress(request: Request, current: string, applied: string | null): string | null {
  if (!applied || applied === current || !siteLanguages.includes(applied)) return null;
  const url = new URL(request.url);
  if (url.searchParams.has("lang") || siteLanguages.includes(readLanguageCookie(request.headers.get("cookie")) ?? "")) return null;
  url.searchParams.set("lang", applied);
  return `${url.pathname}${url.search}`;
}
