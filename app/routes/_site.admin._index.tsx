import { ErrorAlert } from "~/components/ui/alert";
import { appContext } from "~/context";
import { NOTIFICATION_TARGETS } from "~/features/notifications/notification";
import { retryFailedJobs } from "~/features/notifications/outbox.server";
import { ChangePasswordForm, PASSWORD_CHANGE_DUE, SignOutButton } from "~/features/sanctum/admin-screens";
import { CosmicStatus, QuickActions, StatCards } from "~/features/sanctum/dashboard";
import { InsightPanel } from "~/features/sanctum/insight-panel";
import { TREND_RANGES } from "~/features/vrchat/group-trends.server";
import { formatShortDate } from "~/features/events/event-timing";
import { importEventByAdmin } from "~/features/vrchat/event-sync.server";
import { MembersOnlyPanel } from "~/features/vrchat/members-only-panel";
import { APIError } from "better-auth/api";
import { data, Link } from "react-router";
import { countOpenTrips } from "~/features/moderation/tripwire.server";
import { allows } from "~/utils/roles";
import { z } from "zod";
import { requireStaff } from "~/routes/staff-guard.server";
import { withAuthCookies } from "~/utils/auth.server";
import { eq } from "drizzle-orm";
import { profiles } from "~/db/schema";
import { passwordProblem } from "~/features/accounts/password-policy.server";
import { TOO_MANY_CHECKS, withinPassphraseChecks } from "~/features/accounts/sign-in-guard.server";
import { log } from "~/utils/log.server";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { readDashboard } from "~/flows/dashboard.server";
import type { Route } from "./+types/_site.admin._index";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context);
  const range = z.enum(TREND_RANGES).catch("24h").parse(new URL(request.url).searchParams.get("trend"));
  const app = context.get(appContext);
  const [dashboard, openTrips] = await Promise.all([readDashboard(app, viewer, range), allows(viewer.role, "moderation") ? countOpenTrips(app.db).catch(() => 0) : 0]);
  return { ...dashboard, openTrips };
}

const DashboardActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("retry-notifications"), target: z.enum(NOTIFICATION_TARGETS) }),
  z.object({ intent: z.literal("sync-events") }),
  z.object({ intent: z.literal("import-vrchat-event"), vrchatEventId: z.string().regex(/^[\w-]{1,120}$/) }),
  z.object({ intent: z.literal("change-password"), currentPassword: z.string(), newPassword: z.string(), confirm: z.string() }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context);
  const { db, auth, notifications, vrchat } = context.get(appContext);
  const form = await request.formData().catch(() => null);
  const parsed = DashboardActionSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) return data({ error: m.unknown_action() }, { status: 400 });
  const change = parsed.data;
  // One's own passphrase is everyone's; the site's operations and the calendar are the admins'.
  if (change.intent === "retry-notifications") await requireStaff(request, context, "operations");
  if (change.intent === "sync-events" || change.intent === "import-vrchat-event") await requireStaff(request, context, "events.all");
  if (change.intent === "retry-notifications") {
    const count = await retryFailedJobs(db, change.target);
    notifications.wake();
    return { message: m.dash_requeued({ count: formatCount(count) }) };
  }
  if (change.intent === "sync-events") {
    const outcome = await vrchat.eventSync.run("admin");
    if (!outcome.ran) return data({ error: outcome.message }, { status: outcome.reason === "too-soon" ? 429 : 409 });
    const { added, updated, skipped, errors } = outcome.result;
    return {
      message: m.dash_sync_finished({ added: formatCount(added), updated: formatCount(updated), skipped: formatCount(skipped), errors: formatCount(errors.length) }),
      details: errors,
    };
  }
  if (change.intent === "import-vrchat-event") {
    // The one way a members-only VRChat event reaches the public events: an admin's choice.
    const membersOnly = await vrchat.groupData.membersOnly();
    const imported = await importEventByAdmin(db, membersOnly?.events ?? [], change.vrchatEventId, viewer.id);
    if (!imported) return data({ error: m.dash_import_gone() }, { status: 404 });
    log.info("an admin imported a members-only VRChat event", { eventId: imported.id });
    return { message: imported.created ? m.dash_imported() : m.dash_already_imported() };
  }
  if (change.newPassword !== change.confirm) return data({ error: m.passwords_differ() }, { status: 400 });
  // The Security page's allowance: the current passphrase is checked here too.
  if (!(await withinPassphraseChecks(db, viewer.id, new Date()))) return data({ error: TOO_MANY_CHECKS() }, { status: 429 });
  const problem = passwordProblem(change.newPassword);
  if (problem) return data({ error: problem }, { status: 400 });
  try {
    // Revoking the other sessions replaces this one too: its new cookie must reach the browser.
    const { headers } = await auth.api.changePassword({
      body: { currentPassword: change.currentPassword, newPassword: change.newPassword, revokeOtherSessions: true },
      headers: request.headers,
      returnHeaders: true,
    });
    await db.update(profiles).set({ passwordChangeDue: false }).where(eq(profiles.id, viewer.id));
    return data({ message: m.password_changed() }, { headers: withAuthCookies(headers) });
  } catch (error) {
    if (error instanceof APIError) return data({ error: error.message }, { status: 400 });
    log.error("password change failed", { error });
    return data({ error: m.unexpected_error() }, { status: 503 });
  }
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const timeZone = useViewerTimeZone();
  const formatDate = (iso: string) => formatShortDate(new Date(iso), timeZone);
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="font-display text-4xl text-mist-100">{m.sanctum_kicker()}</h1>
        <SignOutButton />
      </div>
      {loaderData.passwordChangeDue ? (
        <p role="alert" className="rounded-xl border border-ember-400/50 bg-ember-500/10 px-4 py-3 text-ember-300">
          {PASSWORD_CHANGE_DUE()} <a href="#change-passphrase" className="font-semibold underline underline-offset-4">{m.dash_change_now()}</a>
        </p>
      ) : null}
      {loaderData.openTrips > 0 ? (
        <p role="alert" className="rounded-xl border border-red-400/50 bg-red-500/10 px-4 py-3 text-red-200" data-testid="tripwire-alert">
          <Link to="/admin/moderation" className="font-semibold underline underline-offset-4">
            {m.trip_dashboard({ count: formatCount(loaderData.openTrips) })}
          </Link>
        </p>
      ) : null}
      {loaderData.figures ? (
        <>
          <StatCards figures={loaderData.figures} />
          <QuickActions pendingGroupApplications={loaderData.figures.pendingGroupApplications} />
          <CosmicStatus figures={loaderData.figures} checks={loaderData.checks} />
          {loaderData.insight ? <InsightPanel insight={loaderData.insight} /> : null}
          {loaderData.membersOnly ? <MembersOnlyPanel listing={loaderData.membersOnly} formatDate={formatDate} /> : null}
          <ChangePasswordForm />
        </>
      ) : (
        <ErrorAlert>{loaderData.error}</ErrorAlert>
      )}
    </div>
  );
}
