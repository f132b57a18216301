/**
 * The site's languages: which one a request is answered in, and the page's language in the
 * browser. The texts themselves are the catalogues in messages/ (one per language), compiled to
 * app/paraglide/; `m.<key>()` gives the text in the current page's language.
 *
 * A request's language is, in order: `?lang=` (for that page only: the address search engines are
 * given for each language), the visitor's choice (the `lang` cookie, set from the footer), the
 * browser's `Accept-Language`, and the site's default (the first of SITE_LANGUAGES). A language the
 * site does not offer, wherever it comes from, is passed over.
 */
import { m } from "~/paraglide/messages";
import { experimentalStaticLocale, getLocale, locales, overwriteGetLocale, type Locale } from "~/paraglide/runtime";

/** Every language with a catalogue. */
export const CATALOGUE_LANGUAGES: readonly string[] = locales;

/** The cookie that keeps a visitor's choice. */
export const LANGUAGE_COOKIE = "lang";
/** A year: a visitor's choice outlives a visit. */
export const LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** Each language's name in its own words, for the language menu. */
export const LANGUAGE_NAMES: Record<string, string> = { en: "English", ja: "日本語" };

/** The language texts are being written in: the page's, the request's, or the site's default. */
export const currentLanguage = (): string => getLocale();

/** The locale `Intl` formats dates and numbers with for a language (English as in the US, spec section 9). */
const INTL_LOCALES: Record<string, string> = { en: "en-US", ja: "ja-JP" };
export const intlLocale = (language = currentLanguage()) => INTL_LOCALES[language] ?? language;

/** A count as the page's language writes it ("1,287"). */
export const formatCount = (count: number) => count.toLocaleString(intlLocale());

/** A text that says one thing for 1 and another, with the count, for any other number ("1 day", "3 days"). */
export const counted = (n: number, one: () => string, many: (inputs: { count: string }) => string) => (n === 1 ? one() : many({ count: formatCount(n) }));

/** Formatters made once per language and options: making one per date costs more than the rest of a page. */
const DATE_FORMATS = new Map<string, Intl.DateTimeFormat>();
/** The date formatter for `options` in `language` (by default the page's). */
export function dateFormat(options: Intl.DateTimeFormatOptions, language = currentLanguage()): Intl.DateTimeFormat {
  const locale = intlLocale(language);
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = DATE_FORMATS.get(key);
  if (!format) DATE_FORMATS.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

/** A moment's day as the page's language writes it short, in UTC ("Nov 28, 2026", "2026年11月28日"). */
export function formatShortDayUTC(iso: string): string {
  return dateFormat({ month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(new Date(iso));
}

/** What goes between two sentences: a space in English, nothing in Japanese (its full stop carries the gap). */
export const sentenceGap = () => m.sentence_gap();

/** The part of a header looked at: no language list a browser sends is longer. */
const MAX_HEADER = 512;
const TAG = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/i;

/**
 * The languages of an `Accept-Language` header, best first, as primary tags ("ja-JP" → "ja"):
 * those with `q=0` are refused, `*` and malformed entries are left out.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: { tag: string; q: number; order: number }[] = [];
  header
    .slice(0, MAX_HEADER)
    .split(",")
    .forEach((part, order) => {
      const [range = "", ...params] = part.trim().split(";");
      const tag = range.trim().toLowerCase();
      if (!TAG.test(tag)) return;
      const qParam = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      if (!Number.isFinite(q) || q <= 0 || q > 1) return;
      entries.push({ tag: tag.split("-")[0]!, q, order });
    });
  entries.sort((a, b) => b.q - a.q || a.order - b.order);
  return [...new Set(entries.map((entry) => entry.tag))];
}

export interface LanguageHints {
  query?: string | null;
  cookie?: string | null;
  acceptLanguage?: string | null;
}

/** The language to answer in: the first hint the site offers, else its default (`offered[0]`). */
export function chooseLanguage(offered: readonly string[], hints: LanguageHints): string {
  const offers = (language: string | null | undefined): language is string =>
    typeof language === "string" && offered.includes(language.toLowerCase());
  if (offers(hints.query)) return hints.query.toLowerCase();
  if (offers(hints.cookie)) return hints.cookie.toLowerCase();
  return acceptedLanguages(hints.acceptLanguage).find(offers) ?? offered[0] ?? "en";
}

/** The value of the `lang` cookie in a Cookie header, if any. */
export function readLanguageCookie(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === LANGUAGE_COOKIE && value) return value.slice(0, 16);
  }
  return null;
}

/**
 * In the browser, the texts follow the page's language, set by the root layout as it renders
 * (the Sanctum and the public pages may differ). On the server, each request's language is set in
 * language.server.ts.
 */
let pageLanguage: string | undefined;
if (typeof window !== "undefined") {
  overwriteGetLocale(() => (pageLanguage || document.documentElement.lang || "en") as Locale);
}

export function setPageLanguage(language: string) {
  if (typeof window !== "undefined") pageLanguage = language;
}

const RELOADED_FOR = "dwell-reloaded-for";

/**
 * The browser's code carries one language's texts (decision 039). When a page's language changes
 * under it (the footer's menu, crossing into a Sanctum in the staff member's own language), the
 * page is loaded again, and the server sends that language's code. Once per page and language:
 * if the server had no code for it, loading again would not help.
 */
export function loadAgainInLanguage(language: string) {
  if (!experimentalStaticLocale) return;
  try {
    if (experimentalStaticLocale === language) {
      sessionStorage.removeItem(RELOADED_FOR);
      return;
    }
    const target = `${language} ${location.href}`;
    if (sessionStorage.getItem(RELOADED_FOR) === target) return;
    sessionStorage.setItem(RELOADED_FOR, target);
  } catch {
    // Without session storage (a private window may refuse it), loading again once is still right.
  }
  location.reload();
}
