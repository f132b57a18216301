import { data } from "react-router";
import { appContext } from "~/context";
import { isConfirmedLink } from "~/db/enums";
import { getLinkTarget } from "~/features/applications/linked-accounts.server";
import { LookupBudgetError } from "~/utils/lookup-cache.server";
import type { DiscordLookup } from "~/features/discord/discord-link-panel";
import { requireOnEvent } from "~/utils/admin-guard.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { getEvent } from "~/features/events/events.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.admin.applications.$applicationId.discord";
import { m } from "~/paraglide/messages";


/**
 * The 'Discord' panel of an application (the group's, or an event's under /admin/events/…): its
 * linked account, and members of the server found by the applicant's Discord handle. It only
 * reads: an approval links the member by its rule (flows/decide.server); staff choose here by hand.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, params.eventId ? "sanctum" : "group.review");
  const { db, discord } = context.get(appContext);
  if (params.eventId) {
    const event = await getEvent(db, params.eventId);
    if (!event) return data({ linked: null, candidates: [], error: m.event_not_found_admin() }, { status: 404 });
    requireOnEvent(viewer, "review", event);
  }
  const reply = (lookup: Partial<DiscordLookup>, status = 200) =>
    data<DiscordLookup>({ linked: null, candidates: [], error: null, ...lookup }, { status, headers: { "Cache-Control": "no-store" } });
  const target = await getLinkTarget(db, params.eventId ? { kind: "event", eventId: params.eventId } : { kind: "group" }, params.applicationId);
  if (!target) return reply({ error: m.lk_application_not_found() }, 404);
  if (!discord) return reply({ error: m.lk_discord_lookup_off() });
  try {
    const candidates = await discord.findCandidates(target.discordHandle);
    const linkedId = target.discordUserId;
    const match = linkedId ? null : await discord.matchApplicant({ handle: target.discordHandle, username: target.vrchatUsername });
    const note = match && "account" in match ? m.lk_discord_at_decision() : match?.unmatched === "claimed" ? m.lk_discord_claimed() : null;
    const linked = linkedId ? (candidates.find((c) => c.id === linkedId) ?? (await discord.describeMember(linkedId))) : null;
    // A member matched by handle and name is a claim: a rule acts on it only once staff confirm it (or the applicant signs in).
    return reply({ linked, candidates, note, confirmable: linked !== null && !isConfirmedLink(target.discordLinkedHow) });
  } catch (error) {
    if (!(error instanceof LookupBudgetError)) log.warn("a Discord lookup failed", { error: error instanceof Error ? error.message : String(error) });
    const message = error instanceof LookupBudgetError ? error.message : m.dl_discord_unreachable();
    return reply({ error: message }, error instanceof LookupBudgetError ? 429 : 503);
  }
}
