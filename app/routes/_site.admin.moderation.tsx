import { data } from "react-router";
import { z } from "zod";
import { appContext } from "~/context";
import { ActFilterForm, actsHref, ActivityTable, ActList, LogReads, NoActs, ReadNowButton, TripList, TripwireForm } from "~/features/moderation/moderation-page";
import { auditLogStates, listActs, listModerators, moderatorActivity, readActFilters } from "~/features/moderation/moderation.server";
import { getTripwireSettings, listTrips, saveTripwireSettings, TripwireSettingsSchema } from "~/features/moderation/tripwire.server";
import { decideServices, type Decider } from "~/flows/decide.server";
import { closeTrip, tripwireServices, undoTrip } from "~/flows/tripwire.server";
import { moderationLogServices, nextReadIn, readModerationLogs } from "~/flows/moderation-log.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { log } from "~/utils/log.server";
import { allows } from "~/utils/roles";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.moderation";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "moderation");
  const { db, vrchat, discord } = context.get(appContext);
  const filters = readActFilters(new URL(request.url).searchParams);
  const mayAnswer = allows(viewer.role, "moderation.tripwire");
  const [page, moderators, reads, trips, settings] = await Promise.all([listActs(db, filters), listModerators(db), auditLogStates(db), listTrips(db), mayAnswer ? getTripwireSettings(db) : null]);
  const moderator = filters.moderator ? { key: filters.moderator, name: moderators.find((one) => one.key === filters.moderator)?.name ?? filters.moderator } : null;
  const activity = moderator ? await moderatorActivity(db, moderator.key, new Date()) : null;
  const places = [...(vrchat.auditLog ? (["vrchat"] as const) : []), ...(discord ? (["discord"] as const) : [])];
  return {
    filters,
    acts: page.acts,
    next: page.next,
    moderators,
    moderator,
    activity,
    reads,
    places,
    trips,
    settings,
    mayAnswer,
    files: allows(viewer.role, "people"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const form = await request.formData().catch(() => null);
  const intent = form?.get("intent");
  if (intent === "read-now") {
    await requireStaff(request, context, "moderation");
    const wait = await nextReadIn(app.db, new Date());
    if (wait > 0) return data({ error: m.mod_read_soon({ seconds: Math.ceil(wait / 1000) }) }, { status: 429 });
    const read = await readModerationLogs(moderationLogServices(app), new Date());
    const failed = [read.vrchat?.error, read.discord?.error].filter(Boolean).join(" · ");
    if (failed) return data({ error: m.mod_read_failed({ place: read.vrchat?.error ? "VRChat" : "Discord", error: failed }) }, { status: 502 });
    return { ok: true as const, message: m.mod_read_done({ count: (read.vrchat?.added ?? 0) + (read.discord?.added ?? 0) }) };
  }
  const viewer = await requireStaff(request, context, "moderation.tripwire");
  if (!form) return data({ error: m.unknown_action() }, { status: 400 });
  try {
    if (intent === "tripwire") {
      const parsed = TripwireSettingsSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) return data({ error: m.trip_invalid() }, { status: 400 });
      await saveTripwireSettings(app.db, parsed.data);
      return { ok: true as const, message: m.trip_saved() };
    }
    const id = z.uuid().safeParse(form.get("id"));
    if (!id.success) return data({ error: m.trip_missing() }, { status: 404 });
    if (intent === "undo") {
      const decider: Decider = { id: viewer.id, username: viewer.username, via: "sanctum", role: viewer.role };
      const outcome = await undoTrip(tripwireServices(decideServices(app), app.vrchat.memberRoles !== null), id.data, decider);
      if (outcome.kind === "missing") return data({ error: m.trip_missing() }, { status: 404 });
      if (outcome.kind === "already") return data({ error: m.trip_already() }, { status: 409 });
      return { ok: true as const, message: m.trip_undo_result({ unbanned: outcome.unbanned, roles: outcome.rolesBack, left: outcome.notUndone }) };
    }
    if (intent === "close" || intent === "close-lift") {
      if (!(await closeTrip(app.db, id.data, { id: viewer.id, name: viewer.username }, intent === "close-lift", () => app.notifications.wake()))) return data({ error: m.trip_missing() }, { status: 404 });
      return { ok: true as const, message: m.trip_closed({ name: viewer.username }) };
    }
  } catch (error) {
    log.error("failed to answer the tripwire", { error });
    return data({ error: m.bansr_not_saved() }, { status: 503 });
  }
  return data({ error: m.unknown_action() }, { status: 400 });
}

export function meta() {
  return [{ title: m.mod_title() }];
}

export default function ModerationPage({ loaderData }: Route.ComponentProps) {
  const { filters, acts, next, moderators, moderator, activity, reads, places, trips, settings, mayAnswer, files } = loaderData;
  const filtered = Object.values({ ...filters, before: undefined }).some(Boolean);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-display text-4xl text-mist-100">{m.mod_title()}</h1>
          <p className="mt-2 max-w-2xl text-mist-300">{m.mod_intro()}</p>
        </div>
        <a href={actsHref({ ...filters, before: undefined }, {}, "/admin/moderation/export")} className="text-sm font-semibold text-aurora-300 underline-offset-2 hover:underline" download>
          {m.mod_export()}
        </a>
      </div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <LogReads reads={reads} places={places} />
        {places.length > 0 ? <ReadNowButton /> : null}
      </div>
      {trips.length > 0 || mayAnswer ? <TripList trips={trips} mayAnswer={mayAnswer} /> : null}
      <ActFilterForm filters={filters} moderators={moderators} />
      {moderator && activity ? <ActivityTable name={moderator.name} weeks={activity} /> : null}
      {acts.length === 0 ? <NoActs filtered={filtered} /> : <ActList acts={acts} filters={filters} files={files} />}
      <nav className="flex gap-4 text-sm" aria-label={m.mod_title()}>
        {filters.before ? (
          <a href={actsHref({ ...filters, before: undefined })} className="text-aurora-300 underline-offset-2 hover:underline">
            {m.mod_newest()}
          </a>
        ) : null}
        {next ? (
          <a href={actsHref(filters, { before: next })} className="text-aurora-300 underline-offset-2 hover:underline" rel="next">
            {m.mod_older()}
          </a>
        ) : null}
      </nav>
      {settings ? <TripwireForm settings={settings} /> : null}
    </div>
  );
}
