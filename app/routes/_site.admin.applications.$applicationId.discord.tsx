import { data } from "react-router";
import { appContext } from "~/context";
import { getLinkTarget, linkAccount } from "~/features/applications/linked-accounts.server";
import { normalizeHandle } from "~/features/discord/discord-bot.server";
import { LookupBudgetError } from "~/utils/lookup-cache.server";
import type { DiscordLookup } from "~/features/discord/discord-link-panel";
import { requireAdmin } from "~/utils/admin-guard.server";
import { log } from "~/utils/log.server";
import { sameName } from "~/utils/text";
import type { Route } from "./+types/_site.admin.applications.$applicationId.discord";

const CLAIMED_NOTE =
  "Claimed, not confirmed: the member with this handle goes by another name than the VRChat username given. Link them only once you are sure.";

/**
 * The 'Discord' panel of an application (the group's, or an event's under /admin/events/…): its
 * linked account, and members of the server found by the applicant's Discord handle. The one
 * member whose username is exactly that handle, and who goes by the VRChat username given, is
 * linked at once, unless an admin already chose.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  const { db, discord } = context.get(appContext);
  const kind = params.eventId ? "event" : "group";
  const reply = (lookup: Partial<DiscordLookup>, status = 200) =>
    data<DiscordLookup>({ linked: null, candidates: [], autoLinked: false, error: null, ...lookup }, { status, headers: { "Cache-Control": "no-store" } });
  const target = await getLinkTarget(db, kind, params.applicationId);
  if (!target) return reply({ error: "Application not found" }, 404);
  if (!discord) return reply({ error: "The Discord bot is not configured on this site: applicants cannot be looked up." });
  try {
    const candidates = await discord.findCandidates(target.discordHandle);
    const exact = candidates.filter((candidate) => normalizeHandle(candidate.username) === normalizeHandle(target.discordHandle));
    // The handle is only the applicant's claim: the member is theirs when they also go by the
    // VRChat username given; otherwise a staff member links them by hand.
    const confirmed = exact.filter((c) => sameName(c.displayName, target.vrchatUsername) || sameName(c.username, target.vrchatUsername));
    let linkedId = target.discordUserId;
    let autoLinked = false;
    const note = !linkedId && exact.length === 1 && confirmed.length === 0 ? CLAIMED_NOTE : null;
    if (!linkedId && exact.length === 1 && confirmed.length === 1) {
      const [only] = exact;
      autoLinked = await linkAccount(
        db,
        kind,
        params.applicationId,
        "discord",
        { userId: only!.id, displayName: only!.displayName },
        { id: viewer.id, name: `${viewer.username} (automatically: the one member with this handle and name)` },
        { onlyIfUnlinked: true },
      );
      if (autoLinked) linkedId = only!.id;
    }
    const linked = linkedId ? (candidates.find((c) => c.id === linkedId) ?? (await discord.describeMember(linkedId))) : null;
    return reply({ linked, candidates, autoLinked, note });
  } catch (error) {
    if (!(error instanceof LookupBudgetError)) log.warn("a Discord lookup failed", { error: error instanceof Error ? error.message : String(error) });
    const message = error instanceof LookupBudgetError ? error.message : "Discord could not be asked just now. Try again in a moment.";
    return reply({ error: message }, error instanceof LookupBudgetError ? 429 : 503);
  }
}
