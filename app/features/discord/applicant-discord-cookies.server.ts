import { siteCookie } from "~/utils/site-cookie.server";

/**
 * An applicant's Discord sign-in keeps two short cookies (see siteCookie): the sign-in under way (which
 * application, and the state Discord must send back) and, once Discord answered, who signed in.
 * Lax: Discord's redirect back is a top-level GET.
 */
export const applicantDiscordCookies = (publicUrl: string) => ({
  start: siteCookie(publicUrl, "dwell-applicant-discord"),
  pending: siteCookie(publicUrl, "dwell-applicant-discord-link"),
});
