import { data, href, redirect } from "react-router";
import { ErrorAlert } from "~/components/ui/alert";
import { appContext } from "~/context";
import { setMemberDiscord } from "~/features/accounts/team.server";
import { DiscordSignedIn } from "~/features/discord/discord-signed-in";
import { DiscordOAuthError, newOAuthState, openPendingLink, sealPendingLink } from "~/features/discord/discord-oauth.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { log } from "~/utils/log.server";
import { siteCookie } from "~/utils/site-cookie.server";
import type { Route } from "./+types/_site.admin.discord-link";
import { m } from "~/paraglide/messages";

/** Short-lived cookies of the sign-in (Lax: Discord's redirect back is a top-level GET); see siteCookie. */
const cookiesOf = (publicUrl: string) => ({ state: siteCookie(publicUrl, "dwell-discord-state"), pending: siteCookie(publicUrl, "dwell-discord-link") });

/**
 * Discord's sign-in comes back here with a code: who signed in is asked of Discord (nothing is
 * written by this GET) and kept, sealed, until the staff member confirms on this page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context);
  const { discordOAuth, auth, config } = context.get(appContext);
  const cookies = cookiesOf(config.PUBLIC_URL);
  const url = new URL(request.url);
  const headers = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
  if (!discordOAuth) return data({ account: null, error: m.dl_not_set_up() }, { status: 404, headers });
  const code = url.searchParams.get("code");
  const state = url.searchParams.get("state");
  if (!code || !state || state !== cookies.state.read(request)) {
    return data({ account: null, error: url.searchParams.has("error") ? m.dl_cancelled() : m.dl_not_started_here() }, { status: 400, headers });
  }
  try {
    const account = await discordOAuth.whoSignedIn(code);
    const secret = (await auth.$context).secret;
    const sealed = sealPendingLink(secret, viewer.id, account, new Date());
    const answer = new Headers(headers);
    answer.append("Set-Cookie", cookies.pending.set(sealed, 600));
    answer.append("Set-Cookie", cookies.state.set("", 0));
    return data({ account, error: null }, { headers: answer });
  } catch (error) {
    if (!(error instanceof DiscordOAuthError)) log.error("Discord's sign-in failed", { error });
    return data({ account: null, error: error instanceof DiscordOAuthError ? error.message : m.dl_discord_unreachable() }, { status: 502, headers });
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context);
  const { discordOAuth, discord, db, auth, config } = context.get(appContext);
  const cookies = cookiesOf(config.PUBLIC_URL);
  if (!discordOAuth) return data({ error: m.dl_not_set_up() }, { status: 404 });
  const intent = (await request.formData().catch(() => null))?.get("intent");
  const actor = { id: viewer.id, username: viewer.username };
  if (intent === "start") {
    const state = newOAuthState();
    return redirect(discordOAuth.authorizeUrl(state), { headers: { "Set-Cookie": cookies.state.set(state, 600) } });
  }
  if (intent === "unlink") {
    await setMemberDiscord(db, viewer.id, null, actor);
    return redirect(`${href("/admin/security")}?discord=unlinked`);
  }
  if (intent !== "confirm") return data({ error: m.unknown_action() }, { status: 400 });
  const account = openPendingLink((await auth.$context).secret, viewer.id, cookies.pending.read(request), new Date());
  if (!account) return data({ error: m.dl_expired() }, { status: 400 });
  // With the bot, the account must be in the group's server: it is who presses the review buttons.
  if (discord && !(await discord.describeMember(account.userId))) {
    return data({ error: m.dl_not_in_server({ name: account.name }) }, { status: 409 });
  }
  const linked = await setMemberDiscord(db, viewer.id, account, actor);
  if (!linked.ok) return data({ error: linked.message }, { status: linked.status });
  return redirect(`${href("/admin/security")}?discord=linked`, { headers: { "Set-Cookie": cookies.pending.set("", 0) } });
}

export function meta() {
  return [{ title: m.dl_title() }, { name: "referrer", content: "same-origin" }];
}

export default function DiscordLink({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData?.error ?? loaderData.error;
  return (
    <div className="space-y-6">
      <h1 className="font-display text-4xl text-mist-100">{m.dl_heading()}</h1>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      {loaderData.account ? (
        <DiscordSignedIn account={loaderData.account} message={m.dl_signed_in_as} intent="confirm">
          {m.dl_submit()}
        </DiscordSignedIn>
      ) : null}
    </div>
  );
}
