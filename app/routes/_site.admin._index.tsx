import { ErrorAlert } from "~/components/ui/alert";
import { appContext } from "~/context";
import { countApplications } from "~/features/applications/applications.server";
import { countEvents } from "~/features/events/events.server";
import { NOTIFICATION_TARGETS } from "~/features/notifications/notification";
import { channelHealth, retryFailedJobs } from "~/features/notifications/outbox.server";
import { ChangePasswordForm, SignOutButton } from "~/features/sanctum/admin-screens";
import { CosmicStatus, QuickActions, StatCards, type SystemCheck } from "~/features/sanctum/dashboard";
import { lastSync } from "~/features/vrchat/event-sync.server";
import type { GroupDataStatus } from "~/features/vrchat/group-data.server";
import { pingDatabase } from "~/db/db.server";
import { APIError } from "better-auth/api";
import { data } from "react-router";
import { z } from "zod";
import { requireAdmin } from "~/utils/admin-guard.server";
import { MIN_PASSWORD_LENGTH } from "~/utils/auth.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.admin._index";

const CHANNEL_NAMES = { telegram: "Telegram", google_sheets: "Google Sheets", discord: "Discord" } as const;

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

function vrchatCheck(status: GroupDataStatus, sync: Awaited<ReturnType<typeof lastSync>>): SystemCheck {
  if (status.source !== "vrchat") {
    return {
      name: "VRChat",
      ok: true,
      detail: `not configured${status.source === "demo" ? ": the home page shows an example group marked 'Demo data'" : ""} (set VRCHAT_GROUP_ID, VRCHAT_USERNAME, VRCHAT_PASSWORD and VRCHAT_CONTACT)`,
    };
  }
  const failing = !!status.lastError;
  const parts = [
    status.fetchedAt ? `group data from ${utc(status.fetchedAt)}` : "no group data yet",
    failing ? `last refresh failed${status.lastErrorAt ? ` at ${utc(status.lastErrorAt)}` : ""}: ${status.lastError}` : null,
    sync?.finishedAt && sync.result
      ? `calendar synced ${utc(sync.finishedAt)} (${sync.result.added} added, ${sync.result.updated} updated, ${sync.result.skipped} skipped${sync.result.errors.length ? `, ${sync.result.errors.length} error(s)` : ""})`
      : "calendar not synced yet",
  ];
  return { name: "VRChat", ok: !failing, detail: parts.filter(Boolean).join("; "), canSync: true };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { db, notifications, mailTransport, vrchat } = context.get(appContext);
  try {
    const [events, applications, channels, , groupStatus, sync] = await Promise.all([
      countEvents(db, new Date()),
      countApplications(db),
      channelHealth(db, notifications.targets),
      pingDatabase(db),
      vrchat.groupData.status(),
      lastSync(db),
    ]);
    const checks: SystemCheck[] = [
      { name: "Database", ok: true, detail: "answering" },
      {
        name: "Email",
        ok: true,
        detail: mailTransport === "smtp" ? "sent by SMTP" : "no SMTP configured: reset links go to the server log",
      },
      ...channels.map((channel) => ({
        name: CHANNEL_NAMES[channel.target],
        target: channel.target,
        failed: channel.failed,
        ok: channel.failed === 0,
        detail:
          channel.failed > 0
            ? `${channel.failed} notification(s) failed${channel.lastError ? ` (last: ${channel.lastError})` : ""}`
            : channel.lastDeliveredAt
              ? `last delivered ${channel.lastDeliveredAt.toISOString().slice(0, 16).replace("T", " ")} UTC${channel.pending ? `, ${channel.pending} waiting` : ""}`
              : channel.pending
                ? `${channel.pending} waiting`
                : "configured, nothing sent yet",
      })),
      vrchatCheck(groupStatus, sync),
    ];
    return {
      figures: {
        totalEvents: events.total,
        upcomingEvents: events.upcoming,
        totalApplications: applications.group.total + applications.event.total,
        pendingEventApplications: applications.event.pending,
        pendingGroupApplications: applications.group.pending,
        eventApplications: applications.event.total,
        eventsWithApplications: events.requiringApplications,
      },
      checks,
      error: null,
    };
  } catch (error) {
    log.error("failed to read the dashboard figures", { error });
    return { figures: null, checks: [], error: "Failed to fetch dashboard stats" };
  }
}

const DashboardActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("retry-notifications"), target: z.enum(NOTIFICATION_TARGETS) }),
  z.object({ intent: z.literal("sync-events") }),
  z.object({ intent: z.literal("change-password"), currentPassword: z.string(), newPassword: z.string(), confirm: z.string() }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context);
  const { db, auth, notifications, vrchat } = context.get(appContext);
  const form = await request.formData().catch(() => null);
  const parsed = DashboardActionSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) return data({ error: "Unknown action." }, { status: 400 });
  const change = parsed.data;
  if (change.intent === "retry-notifications") {
    const count = await retryFailedJobs(db, change.target);
    notifications.wake();
    return { message: `${count} notification(s) queued again.` };
  }
  if (change.intent === "sync-events") {
    const outcome = await vrchat.eventSync.run("admin");
    if (!outcome.ran) return data({ error: outcome.message }, { status: outcome.reason === "too-soon" ? 429 : 409 });
    const { added, updated, skipped, errors } = outcome.result;
    return {
      message: `Sync finished: ${added} added, ${updated} updated, ${skipped} skipped, ${errors.length} error(s).`,
      details: errors,
    };
  }
  if (change.newPassword !== change.confirm) return data({ error: "Passwords do not match" }, { status: 400 });
  if (change.newPassword.length < MIN_PASSWORD_LENGTH) return data({ error: "Password must be at least 6 characters" }, { status: 400 });
  try {
    // Revoking the other sessions replaces this one too: its new cookie must reach the browser.
    const { headers } = await auth.api.changePassword({
      body: { currentPassword: change.currentPassword, newPassword: change.newPassword, revokeOtherSessions: true },
      headers: request.headers,
      returnHeaders: true,
    });
    const response = new Headers();
    for (const cookie of headers.getSetCookie()) response.append("Set-Cookie", cookie);
    return data({ message: "Passphrase changed. Your other sessions were signed out." }, { headers: response });
  } catch (error) {
    if (error instanceof APIError) return data({ error: error.message }, { status: 400 });
    log.error("password change failed", { error });
    return data({ error: "An unexpected error occurred" }, { status: 503 });
  }
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="font-display text-4xl text-mist-100">The Sanctum</h1>
        <SignOutButton />
      </div>
      {loaderData.figures ? (
        <>
          <StatCards figures={loaderData.figures} />
          <QuickActions pendingGroupApplications={loaderData.figures.pendingGroupApplications} />
          <CosmicStatus figures={loaderData.figures} checks={loaderData.checks} />
          <ChangePasswordForm />
        </>
      ) : (
        <ErrorAlert>{loaderData.error}</ErrorAlert>
      )}
    </div>
  );
}
