import { data, href, redirect } from "react-router";
import { appContext, type AppContext } from "~/context";
import { StatusMissing, StatusPage } from "~/features/applications/status-page";
import { ApplicantDiscordPanel } from "~/features/discord/applicant-discord-panel";
import { applicantDiscordCookies } from "~/features/discord/applicant-discord-cookies.server";
import { newOAuthState, sealApplicantStart } from "~/features/discord/discord-oauth.server";
import { STATUS_LINK_DAYS } from "~/features/decisions/decision-messages";
import { formatLongDate, formatLongDateTime } from "~/features/events/event-timing";
import { openForDiscord } from "~/flows/applicant-discord.server";
import { readStatusPage } from "~/flows/application-status.server";
import { decideServices } from "~/flows/decide.server";
import { checkProof, startProof } from "~/flows/prove-account.server";
import { withdrawApplication } from "~/flows/withdraw.server";
import { m } from "~/paraglide/messages";
import { applicantPageAddress } from "~/utils/language.server";
import { log } from "~/utils/log.server";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import type { Route } from "./+types/_site.applications.status.$token";

export const invalidStatusLink = () => m.status_invalid_link();

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  try {
    const url = new URL(request.url);
    const page = await readStatusPage(ctx, params.token, { edited: url.searchParams.get("edited"), discord: url.searchParams.get("discord") }, new Date());
    if (page.kind === "missing") return data({ page: null, error: invalidStatusLink() }, { status: 404 });
    const theirs = applicantPageAddress(request, ctx.language, page.language);
    if (theirs) return redirect(theirs, { headers: { "Cache-Control": "no-store" } });
    return { page: { status: page.status, discord: page.discord }, error: null };
  } catch (error) {
    log.error("failed to read an application's status", { error });
    return data({ page: null, error: m.status_read_failed() }, { status: 503 });
  }
}

/**
 * 'Withdraw my application': asked first (the page shows what it means), then done; a second send
 * (another tab, a double click) only says it is done already. Also the proof's and Discord's steps.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const form = await request.formData().catch(() => null);
  const intent = form?.get("intent");
  if (intent === "withdraw-ask") return { confirming: true, notice: null };
  if (intent === "prove-start" || intent === "prove-check") return prove(ctx, params.token, intent);
  if (intent === "discord-start") return startDiscord(ctx, params.token);
  if (intent !== "withdraw") return data({ confirming: false, notice: m.unknown_action() }, { status: 400 });
  try {
    const outcome = await withdrawApplication(decideServices(ctx), params.token, new Date());
    if (outcome.kind === "missing") return data({ confirming: false, notice: invalidStatusLink() }, { status: 404 });
    if (outcome.kind === "not-withdrawable") return data({ confirming: false, notice: outcome.reason }, { status: 409 });
    if (outcome.kind === "already") return { confirming: false, notice: m.withdraw_already() };
    return redirect(href("/applications/status/:token", { token: params.token }));
  } catch (error) {
    log.error("failed to withdraw an application", { error });
    return data({ confirming: false, notice: m.withdraw_failed() }, { status: 503 });
  }
}

/** 'Prove this account is yours' and 'Check' (see flows/prove-account). */
async function prove(ctx: AppContext, token: string, intent: "prove-start" | "prove-check") {
  try {
    const outcome = intent === "prove-start" ? await startProof(ctx.db, token, new Date()) : await checkProof(decideServices(ctx), token, new Date());
    if (outcome.kind === "refused") return data({ confirming: false, notice: outcome.message || invalidStatusLink() }, { status: outcome.status });
    return { confirming: false, notice: null };
  } catch (error) {
    log.error("failed to prove an applicant's VRChat account", { error });
    return data({ confirming: false, notice: m.proof_unreachable() }, { status: 503 });
  }
}

/** 'Sign in with Discord': to Discord's sign-in, with the application and the state kept in a short cookie. */
async function startDiscord(ctx: AppContext, token: string) {
  if (!ctx.discordOAuth) return data({ confirming: false, notice: m.dl_not_set_up() }, { status: 404 });
  if (!(await openForDiscord(ctx.db, token, new Date()))) return data({ confirming: false, notice: m.adl_not_open() }, { status: 409 });
  const state = newOAuthState();
  const sealed = sealApplicantStart((await ctx.auth.$context).secret, token, state, new Date());
  const cookie = applicantDiscordCookies(ctx.config.PUBLIC_URL).start.set(sealed, 600);
  return redirect(ctx.discordOAuth.authorizeUrl(state, "applicant"), { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
}

/** The link is the applicant's key: no cache keeps the page. */
export function headers() {
  return { "Cache-Control": "no-store" };
}

/** Nor does a link or an image on it pass the address on (the site's header policy sends the origin). */
export function meta() {
  return [{ title: m.status_title() }, { name: "robots", content: "noindex" }, { name: "referrer", content: "same-origin" }];
}

export default function ApplicationStatusPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const timeZone = useViewerTimeZone();
  const { page, error } = loaderData;
  if (!page) return <StatusMissing error={error} linkDays={STATUS_LINK_DAYS} />;
  const dates = { date: (iso: string) => formatLongDate(new Date(iso), timeZone), dateTime: (iso: string) => formatLongDateTime(new Date(iso), timeZone) };
  return (
    <StatusPage
      status={page.status}
      token={params.token}
      notice={actionData?.notice ?? null}
      confirming={actionData?.confirming === true}
      dates={dates}
      discord={<ApplicantDiscordPanel view={page.discord} />}
    />
  );
}
