import { redirect } from "react-router";
import { z } from "zod";
import { appContext } from "~/context";
import { m } from "~/paraglide/messages";
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE } from "~/utils/language";
import { sameSitePath } from "~/utils/safe-next";
import type { Route } from "./+types/language";

const LanguageChoiceSchema = z.object({
  language: z.string().trim().toLowerCase().max(16),
  next: z.string().max(2000).optional(),
});

/**
 * Where to go back to: a path of this site, never another site, without `?lang=` (which would
 * otherwise outweigh the choice just made).
 */
function returnPath(next: string | undefined): string {
  const url = new URL(sameSitePath(next), "http://site.invalid");
  url.searchParams.delete("lang");
  return `${url.pathname}${url.search}`;
}

/** POST /language: keeps the visitor's choice of language in a cookie and returns to their page. */
export async function action({ request, context }: Route.ActionArgs) {
  const { config } = context.get(appContext);
  const parsed = LanguageChoiceSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success || !config.SITE_LANGUAGES.includes(parsed.data.language)) {
    return new Response(m.language_not_offered(), { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const secure = config.PUBLIC_URL.startsWith("https://") ? "; Secure" : "";
  return redirect(returnPath(parsed.data.next), {
    status: 303,
    headers: {
      "Set-Cookie": `${LANGUAGE_COOKIE}=${parsed.data.language}; Path=/; Max-Age=${LANGUAGE_COOKIE_MAX_AGE}; SameSite=Lax; HttpOnly${secure}`,
    },
  });
}

/** The choice is made with the footer's form; the address alone leads home. */
export function loader() {
  return redirect("/");
}
