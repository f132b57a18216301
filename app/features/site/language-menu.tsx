import { Form, useLocation } from "react-router";
import { m } from "~/paraglide/messages";
import { isSanctumPath } from "~/utils/sanctum-path";
import { LANGUAGE_NAMES } from "~/utils/language";

/**
 * The visitor's choice of language: a form that works without a script (POST /language keeps the
 * choice in a cookie and returns to this page). Each language is named in its own words. Not in the
 * Sanctum, whose language each staff member sets on the Security page.
 */
export function LanguageMenu({ language, languages, id }: { language: string; languages: readonly string[]; id: string }) {
  const location = useLocation();
  // In the Sanctum each staff member's language is theirs, chosen on the Security page.
  if (languages.length < 2 || isSanctumPath(location.pathname)) return null;
  return (
    // A whole new page: the browser's code is one language's (decision 039).
    <Form method="post" action="/language" reloadDocument className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="text-mist-400">
        {m.language_label()}
      </label>
      <select
        id={id}
        name="language"
        defaultValue={language}
        className="rounded-lg border border-aurora-400/25 bg-night-900 px-2 py-1.5 text-mist-100"
      >
        {languages.map((option) => (
          <option key={option} value={option} lang={option}>
            {LANGUAGE_NAMES[option] ?? option}
          </option>
        ))}
      </select>
      <input type="hidden" name="next" value={`${location.pathname}${location.search}`} />
      <button
        type="submit"
        className="rounded-lg border border-aurora-400/25 px-3 py-1.5 font-semibold text-mist-100 hover:bg-white/5"
      >
        {m.language_change()}
      </button>
    </Form>
  );
}
