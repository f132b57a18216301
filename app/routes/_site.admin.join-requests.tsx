import { data } from "react-router";
import { z } from "zod";
import { ErrorAlert } from "~/components/ui/alert";
import { appContext } from "~/context";
import { getSiteSettings } from "~/features/accounts/site-settings.server";
import { listJobsFor } from "~/features/notifications/outbox.server";
import { joinRequestSubject, listJoinRequests, type JoinRequestView } from "~/features/screening/join-requests.server";
import { banPerson } from "~/flows/bans.server";
import { JoinRequestList, JoinRequestSettings, JOIN_REQUESTS_INTRO } from "~/features/screening/join-requests-page";
import { JOIN_REQUEST_TEXTS } from "~/features/screening/join-requests";
import { chooseJoinRequestHandling, decideJoinRequests } from "~/flows/join-requests.server";
import { decideServices, type Decider } from "~/flows/decide.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { lastListRead } from "~/features/vrchat/vrchat-list-reads.server";
import { UnreadableEntries } from "~/features/vrchat/unreadable-entries";
import { log } from "~/utils/log.server";
import { allows } from "~/utils/roles";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.join-requests";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "group.review");
  const { db, vrchat, config } = context.get(appContext);
  const base = {
    configured: vrchat.membership !== null,
    reads: config.VRCHAT_READ_JOIN_REQUESTS,
    acts: vrchat.membershipActions,
    mayChooseRules: allows(viewer.role, "join-requests.rules"),
    mayBan: allows(viewer.role, "bans"),
    files: allows(viewer.role, "people"),
    byRules: false,
    requests: [] as JoinRequestView[],
    /** The VRChat action of each request Dwell decided: its state, by request id. */
    actions: {} as Record<string, { status: string; text: string }>,
    /** Entries of VRChat's list at its last read that could not be read (left out, and logged). */
    unreadable: 0,
    error: null as string | null,
  };
  try {
    const [settings, requests, read] = await Promise.all([getSiteSettings(db), listJoinRequests(db, new Date()), lastListRead(db, "join_requests")]);
    const jobs = await listJobsFor(db, requests.filter((request) => request.decision).map((request) => request.id), ["vrchat_membership"]);
    // The latest job of each: sent (with what VRChat said), waiting, or failed.
    const actions = Object.fromEntries(
      jobs.map((job) => [job.sourceId, { status: job.status, text: job.status === "delivered" ? (job.result ?? m.bansr_done()) : job.status === "failed" ? m.bansr_failed({ reason: job.lastError ?? m.bansr_unknown() }) : m.jrr_waiting_vrchat() }]),
    );
    return { ...base, byRules: settings.joinRequestsByRules, requests, actions, unreadable: read?.unreadable ?? 0 };
  } catch (error) {
    log.error("failed to load the join requests", { error });
    return data({ ...base, error: m.jrr_load_failed() }, { status: 503 });
  }
}

const DecideSchema = z.object({
  decision: z.enum(["accept", "reject", "block"], { error: () => m.jrr_choose() }),
  ids: z.array(z.uuid()).min(1, { error: () => m.jrr_select_one() }).max(500),
});

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "group.review");
  const app = context.get(appContext);
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: m.bansr_form_unreadable() }, { status: 400 });
  const intent = form.get("intent");
  try {
    if (intent === "rules") {
      if (!allows(viewer.role, "join-requests.rules")) return data({ error: m.jrr_owner_only() }, { status: 403 });
      const byRules = form.get("handling") === "rules";
      await chooseJoinRequestHandling(app.db, byRules, { id: viewer.id, username: viewer.username }, new Date());
      return { ok: true as const, message: byRules ? m.jrr_rules_on() : m.jrr_rules_off() };
    }
    if (intent === "ban") {
      if (!allows(viewer.role, "bans")) return data({ error: m.apps_bans_owners() }, { status: 403 });
      const id = z.uuid().safeParse(form.get("id"));
      const reason = z.string().trim().min(1, { error: () => m.apps_ban_reason() }).max(1_000).safeParse(form.get("reason") ?? "");
      if (!reason.success) return data({ error: reason.error.issues[0]!.message }, { status: 400 });
      const request = id.success ? await joinRequestSubject(app.db, id.data) : null;
      if (!request) return data({ error: m.jrr_gone() }, { status: 404 });
      const decider: Decider = { id: viewer.id, username: viewer.username, via: "sanctum", role: viewer.role };
      const banned = await banPerson(decideServices(app), { vrchatUserId: request.userId, discordUserId: null, displayName: request.displayName }, reason.data, decider);
      if (banned.kind === "already") return data({ error: m.jrr_already_banned({ name: request.displayName }) }, { status: 409 });
      return { ok: true as const, message: m.bans_banned({ name: request.displayName }) };
    }
    if (intent === "decide") {
      const parsed = DecideSchema.safeParse({ decision: form.get("decision"), ids: form.getAll("ids") });
      if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
      const decider: Decider = { id: viewer.id, username: viewer.username, via: "sanctum", role: viewer.role };
      const { decision } = parsed.data;
      const outcome = await decideJoinRequests(decideServices(app), parsed.data.ids, { decision: decision === "accept" ? "accept" : "reject", block: decision === "block" }, decider);
      if ("kind" in outcome) return data({ error: JOIN_REQUEST_TEXTS.noActions }, { status: 409 });
      if (outcome.decided === 0) {
        const why = outcome.needsProof > 0 ? JOIN_REQUEST_TEXTS.needsProof : JOIN_REQUEST_TEXTS.nothing;
        return data({ error: why }, { status: 409 });
      }
      return { ok: true as const, message: JOIN_REQUEST_TEXTS.done(outcome) };
    }
  } catch (error) {
    log.error("failed to decide join requests", { error });
    return data({ error: m.jrr_failed() }, { status: 503 });
  }
  return data({ error: m.unknown_action() }, { status: 400 });
}

export function meta() {
  return [{ title: m.jrr_title() }];
}

export default function JoinRequestsPage({ loaderData }: Route.ComponentProps) {
  const { configured, reads, acts, mayChooseRules, mayBan, files, byRules, requests, actions, unreadable, error } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="font-display text-4xl text-mist-100">{m.jrr_heading()}</h1>
        <p className="mt-2 max-w-2xl text-mist-300">{JOIN_REQUESTS_INTRO()}</p>
      </div>
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      {!configured ? (
        <ErrorAlert>{m.jrr_not_configured()}</ErrorAlert>
      ) : (
        <>
          <JoinRequestSettings byRules={byRules} mayChoose={mayChooseRules} />
          {!reads ? <p className="text-sm text-ember-300">{JOIN_REQUEST_TEXTS.notRead}</p> : null}
          {!acts ? <p className="text-sm text-ember-300">{JOIN_REQUEST_TEXTS.noActions}</p> : null}
          <UnreadableEntries count={unreadable} />
          <JoinRequestList requests={requests} acts={acts} actions={actions} mayBan={mayBan} files={files} />
        </>
      )}
    </div>
  );
}
