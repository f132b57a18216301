import { data, href, Link, redirect } from "react-router";
import { ErrorAlert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { appContext } from "~/context";
import { DiscordOAuthError, openApplicantStart, openPendingLink, sealPendingLink } from "~/features/discord/discord-oauth.server";
import { DiscordSignedIn } from "~/features/discord/discord-signed-in";
import { applicantDiscordCookies } from "~/features/discord/applicant-discord-cookies.server";
import { decideServices } from "~/flows/decide.server";
import { linkApplicantDiscord } from "~/flows/applicant-discord.server";
import { m } from "~/paraglide/messages";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.applications.discord-link";

const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };

/**
 * Discord's sign-in comes back here for an applicant (started on their status page): who signed in is
 * asked of Discord (this GET writes nothing) and kept, sealed, until the applicant confirms below.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { discordOAuth, auth, config } = context.get(appContext);
  const cookies = applicantDiscordCookies(config.PUBLIC_URL);
  const url = new URL(request.url);
  const secret = (await auth.$context).secret;
  const started = openApplicantStart(secret, cookies.start.read(request), new Date());
  const back = started ? href("/applications/status/:token", { token: started.token }) : null;
  if (!discordOAuth) return data({ account: null, back, error: m.dl_not_set_up() }, { status: 404, headers: NO_STORE });
  const code = url.searchParams.get("code");
  if (url.searchParams.has("error")) return data({ account: null, back, error: m.adl_cancelled() }, { status: 400, headers: NO_STORE });
  if (!started || !code || url.searchParams.get("state") !== started.state) return data({ account: null, back, error: m.adl_expired() }, { status: 400, headers: NO_STORE });
  try {
    const account = await discordOAuth.whoSignedIn(code, "applicant");
    const headers = new Headers(NO_STORE);
    headers.append("Set-Cookie", cookies.pending.set(sealPendingLink(secret, `applicant:${started.token}`, account, new Date()), 600));
    return data({ account, back, error: null }, { headers });
  } catch (error) {
    if (!(error instanceof DiscordOAuthError)) log.error("an applicant's Discord sign-in failed", { error });
    return data({ account: null, back, error: error instanceof DiscordOAuthError ? error.message : m.dl_discord_unreachable() }, { status: 502, headers: NO_STORE });
  }
}

/** 'Link it to my application': the sealed answer, opened for the application it was asked for. */
export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const cookies = applicantDiscordCookies(ctx.config.PUBLIC_URL);
  const secret = (await ctx.auth.$context).secret;
  const now = new Date();
  const started = openApplicantStart(secret, cookies.start.read(request), now);
  const account = started ? openPendingLink(secret, `applicant:${started.token}`, cookies.pending.read(request), now) : null;
  if (!started || !account) return data({ error: m.adl_expired() }, { status: 400 });
  const linked = await linkApplicantDiscord(decideServices(ctx), started.token, account, now);
  if (linked.kind === "closed") return data({ error: m.adl_not_open() }, { status: 409 });
  const headers = new Headers();
  headers.append("Set-Cookie", cookies.start.set("", 0));
  headers.append("Set-Cookie", cookies.pending.set("", 0));
  return redirect(`${href("/applications/status/:token", { token: started.token })}?discord=linked`, { headers });
}

export function meta() {
  return [{ title: m.adl_title() }, { name: "robots", content: "noindex" }, { name: "referrer", content: "same-origin" }];
}

export default function ApplicantDiscordLink({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData?.error ?? loaderData.error;
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-12 sm:px-6">
      <h1 className="font-display text-3xl text-mist-100">{m.adl_confirm_heading()}</h1>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      {loaderData.account && !actionData?.error ? (
        <DiscordSignedIn account={loaderData.account} message={m.adl_signed_in_as}>
          {m.adl_confirm()}
        </DiscordSignedIn>
      ) : null}
      {loaderData.back ? (
        <Button asChild variant="ghost">
          <Link to={loaderData.back}>{m.adl_back()}</Link>
        </Button>
      ) : null}
    </div>
  );
}
