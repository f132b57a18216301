import { data } from "react-router";
import { appContext } from "~/context";
import { isConfirmedLink } from "~/db/enums";
import { SOURCE_LABEL, type VRChatLookup } from "~/features/vrchat/vrchat-link-panel";
import { getLinkTarget } from "~/features/applications/linked-accounts.server";
import { logLookupFailure } from "~/features/vrchat/vrchat-membership.server";
import { LookupBudgetError } from "~/utils/lookup-cache.server";
import { requireOnEvent } from "~/utils/admin-guard.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { getEvent } from "~/features/events/events.server";
import type { Route } from "./+types/_site.admin.applications.$applicationId.vrchat";
import { m } from "~/paraglide/messages";


/**
 * The 'VRChat' panel of an application (the group's, or an event's under /admin/events/…): its
 * linked account, and candidates for the applicant (the group's join requests with their name, then
 * a user search). It only reads: the decision links the applicant by its rule (flows/decide.server),
 * and staff choose here by hand.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, params.eventId ? "sanctum" : "group.review");
  const { db, vrchat } = context.get(appContext);
  const reply = (lookup: Partial<VRChatLookup>, status = 200) =>
    data<VRChatLookup>({ linked: null, candidates: [], error: null, ...lookup }, { status, headers: { "Cache-Control": "no-store" } });
  if (params.eventId) {
    const event = await getEvent(db, params.eventId);
    if (!event) return reply({ error: m.event_not_found_admin() }, 404);
    requireOnEvent(viewer, "review", event);
  }
  const target = await getLinkTarget(db, params.eventId ? { kind: "event", eventId: params.eventId } : { kind: "group" }, params.applicationId);
  if (!target) return reply({ error: m.lk_application_not_found() }, 404);
  if (!vrchat.membership) return reply({ error: m.lk_vrchat_lookup_off() });
  try {
    const candidates = await vrchat.membership.findCandidates(target.vrchatUsername);
    const requests = candidates.filter((candidate) => candidate.source === "request" && candidate.status === "requested");
    const linkedId = target.vrchatUserId;
    const linked = linkedId ? (candidates.find((c) => c.id === linkedId) ?? (await vrchat.membership.describeUser(linkedId))) : null;
    const labelled = candidates.map((candidate) => ({ ...candidate, sourceLabel: SOURCE_LABEL[candidate.source]() }));
    const confirmable = linked !== null && !isConfirmedLink(target.vrchatLinkedHow);
    return reply({ linked, candidates: labelled, confirmable, note: !linkedId && requests.length === 1 ? m.lk_vrchat_at_decision() : null });
  } catch (error) {
    logLookupFailure(error);
    const message = error instanceof LookupBudgetError ? error.message : m.people_vrchat_down();
    return reply({ error: message }, error instanceof LookupBudgetError ? 429 : 503);
  }
}
