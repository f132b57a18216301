import { ErrorAlert } from "~/components/ui/alert";
import { appContext } from "~/context";
import { countApplications } from "~/features/applications/applications.server";
import { spamDefenceFigures } from "~/features/applications/spam-guard.server";
import { countEvents } from "~/features/events/events.server";
import { NOTIFICATION_TARGETS } from "~/features/notifications/notification";
import { channelHealth, retryFailedJobs, type ChannelHealth } from "~/features/notifications/outbox.server";
import { ChangePasswordForm, PASSWORD_CHANGE_DUE, SignOutButton } from "~/features/sanctum/admin-screens";
import { CosmicStatus, QuickActions, StatCards, type SystemCheck } from "~/features/sanctum/dashboard";
import { InsightPanel, type InsightData } from "~/features/sanctum/insight-panel";
import { applicationInsight } from "~/features/applications/insight.server";
import { listGroupTrend, TREND_RANGES, trendPeriod } from "~/features/vrchat/group-trends.server";
import { formatShortDate } from "~/features/events/event-timing";
import { importEventByAdmin, lastSync, membersOnlyListing } from "~/features/vrchat/event-sync.server";
import { GROUP_PARTS, type GroupPart } from "~/features/vrchat/group-data";
import type { GroupDataStatus } from "~/features/vrchat/group-data.server";
import { MembersOnlyPanel } from "~/features/vrchat/members-only-panel";
import type { VRChatErrorKind } from "~/features/vrchat/vrchat-client.server";
import { pingDatabase } from "~/db/db.server";
import { APIError } from "better-auth/api";
import { data } from "react-router";
import { z } from "zod";
import { requireStaff } from "~/utils/admin-guard.server";
import { withAuthCookies } from "~/utils/auth.server";
import { eq } from "drizzle-orm";
import { profiles } from "~/db/schema";
import { passwordProblem } from "~/features/accounts/password-policy.server";
import { accountSignInFailures, FREE_FAILURES_ACCOUNT_WIDE, TOO_MANY_CHECKS, withinPassphraseChecks } from "~/features/accounts/sign-in-guard.server";
import { log } from "~/utils/log.server";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import type { Route } from "./+types/_site.admin._index";

const CHANNEL_NAMES = { telegram: "Telegram", google_sheets: "Google Sheets", discord: "Discord" } as const;

/** Decisions' actions: retried one by one from the applications' cards, where each one's reason shows. */
const ACTION_NAMES = {
  vrchat_membership: "Actions in VRChat",
  discord_role: "Discord member role",
  discord_dm: "Discord messages",
  discord_review: "Discord review channel",
} as const;

function actionCheck(action: ChannelHealth<keyof typeof ACTION_NAMES>): SystemCheck {
  return {
    name: ACTION_NAMES[action.target],
    ok: action.failed === 0,
    detail:
      action.failed > 0
        ? `${action.failed} failed${action.target === "discord_review" ? "" : ": open the application to see why and retry"}${action.lastError ? ` (last: ${action.lastError})` : ""}`
        : action.lastDeliveredAt
          ? `last done ${utc(action.lastDeliveredAt)}${action.pending ? `, ${action.pending} waiting` : ""}`
          : action.pending
            ? `${action.pending} waiting`
            : "configured, nothing done yet",
  };
}

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** How a part's failure reads in the dashboard: not answering is not the same as answering oddly. */
const FAILURE_KIND: Record<VRChatErrorKind, string> = {
  unreachable: "VRChat is not answering",
  "rate-limited": "VRChat asked us to slow down",
  "refused-shape": "VRChat answered in a shape that was refused",
  forbidden: "VRChat refused the bot account",
  auth: "the bot account could not sign in",
  http: "VRChat answered with an error",
};

const PART_NAMES: Record<GroupPart, string> = {
  group: "Group",
  instances: "Live instances",
  posts: "Posts",
  events: "Calendar",
  members: "Members",
};

/** Each part that failed, since when and why; items left out; a calendar month cut short. */
function partProblems(parts: GroupDataStatus["parts"]): string[] {
  if (!parts) return [];
  return GROUP_PARTS.flatMap((part) => {
    const status = parts[part];
    const lines: string[] = [];
    if (status.lastError && status.lastErrorKind) {
      const since = status.lastErrorAt ? ` since ${utc(new Date(status.lastErrorAt))}` : "";
      const last = status.fetchedAt ? `; showing what was read at ${utc(new Date(status.fetchedAt))}` : "; nothing read yet";
      lines.push(`${PART_NAMES[part]}: ${FAILURE_KIND[status.lastErrorKind]}${since} (${status.lastError})${last}`);
    }
    if (status.dropped > 0) lines.push(`${PART_NAMES[part]}: ${status.dropped} item(s) VRChat sent could not be used and were left out`);
    if (status.note) lines.push(`${PART_NAMES[part]}: ${status.note}`);
    return lines;
  });
}

function vrchatCheck(status: GroupDataStatus, sync: Awaited<ReturnType<typeof lastSync>>): SystemCheck {
  if (status.source !== "vrchat") {
    return {
      name: "VRChat",
      ok: true,
      detail: `not configured${status.source === "demo" ? ": the home page shows an example group marked 'Demo data'" : ""} (set VRCHAT_GROUP_ID, VRCHAT_USERNAME, VRCHAT_PASSWORD and VRCHAT_CONTACT)`,
    };
  }
  const problems = partProblems(status.parts);
  const failing = !!status.lastError || (status.parts ? GROUP_PARTS.some((part) => status.parts![part].lastError) : false);
  const parts = [
    status.fetchedAt ? `group data from ${utc(status.fetchedAt)}` : "no group data yet",
    status.lastError ? `last refresh failed${status.lastErrorAt ? ` at ${utc(status.lastErrorAt)}` : ""}: ${status.lastError}` : null,
    ...problems,
    sync?.finishedAt && sync.result
      ? `calendar synced ${utc(sync.finishedAt)} (${sync.result.added} added, ${sync.result.updated} updated, ${sync.result.skipped} skipped${sync.result.errors.length ? `, ${sync.result.errors.length} error(s)` : ""})`
      : "calendar not synced yet",
  ];
  return { name: "VRChat", ok: !failing, detail: parts.filter(Boolean).join("; "), canSync: true };
}

/** The public forms' defences over the last 24 hours; failing while the site-wide ceiling is being hit. */
function formsCheck(spam: Awaited<ReturnType<typeof spamDefenceFigures>>, ceiling: number): SystemCheck {
  const { refused } = spam;
  const counts = [
    refused["site-ceiling"] ? `${refused["site-ceiling"]} over the site-wide ceiling (${ceiling} a minute)` : null,
    refused["client-limit"] ? `${refused["client-limit"]} over one address's limit` : null,
    refused["too-quick"] ? `${refused["too-quick"]} sent too quickly` : null,
    refused.honeypot ? `${refused.honeypot} with the hidden field filled` : null,
    refused.duplicate ? `${refused.duplicate} repeating a name or Discord ID that had applied` : null,
    refused["probe-limit"] ? `${refused["probe-limit"]} from addresses that kept repeating names (possible probing)` : null,
  ].filter(Boolean);
  const ceilingHit = spam.ceilingLastHitAt
    ? `site-wide ceiling reached in ${spam.ceilingMinutes} minute(s), last at ${utc(spam.ceilingLastHitAt)}; `
    : "";
  const recent = !!spam.ceilingLastHitAt && Date.now() - spam.ceilingLastHitAt.getTime() < 60 * 60_000;
  return {
    name: "Application forms",
    ok: !recent,
    detail: counts.length > 0 ? `${ceilingHit}refused in the last 24 h: ${counts.join(", ")}` : "nothing refused in the last 24 h",
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context);
  const { db, notifications, mailTransport, vrchat, discord, config } = context.get(appContext);
  const actionTargets = [
    ...(vrchat.membershipActions ? (["vrchat_membership"] as const) : []),
    ...(discord ? (["discord_role", "discord_dm"] as const) : []),
    ...(discord && config.DISCORD_REVIEW_CHANNEL_ID ? (["discord_review"] as const) : []),
  ];
  const range = z.enum(TREND_RANGES).catch("24h").parse(new URL(request.url).searchParams.get("trend"));
  try {
    const now = new Date();
    const [events, applications, channels, actions, , groupStatus, sync, membersOnly, spam, [own], signInFailures, groupTrend, applicationTrend] = await Promise.all([
      countEvents(db, new Date()),
      countApplications(db),
      channelHealth(db, notifications.targets),
      channelHealth(db, actionTargets),
      pingDatabase(db),
      vrchat.groupData.status(),
      lastSync(db),
      vrchat.groupData.membersOnly().then((items) => membersOnlyListing(db, items, new Date())),
      spamDefenceFigures(db, config.RATE_LIMIT_APPLICATIONS_SITE, now),
      db.select({ due: profiles.passwordChangeDue }).from(profiles).where(eq(profiles.id, viewer.id)),
      accountSignInFailures(db, viewer.email, now),
      vrchat.groupData.source === "vrchat" ? listGroupTrend(db, range, now) : Promise.resolve(null),
      applicationInsight(db, now),
    ]);
    const period = trendPeriod(range, now);
    const insight: InsightData = { range, period: { from: period.from.toISOString(), to: period.to.toISOString() }, group: groupTrend, weeks: applicationTrend.weeks, decisions: { group: applicationTrend.group, event: applicationTrend.event } };
    const checks: SystemCheck[] = [
      { name: "Database", ok: true, detail: "answering" },
      {
        name: "Sign-in",
        ok: signInFailures.failures < FREE_FAILURES_ACCOUNT_WIDE,
        detail: `${signInFailures.failures} failed sign-in(s) to your account in the last day, from anywhere${
          signInFailures.lastFailedAt ? ` (last at ${signInFailures.lastFailedAt.toISOString().slice(0, 16).replace("T", " ")} UTC)` : ""
        }; past ${FREE_FAILURES_ACCOUNT_WIDE}, each further try waits, 30 s at first and twice as long each time, up to 15 min`,
      },
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
      ...actions.map(actionCheck),
      vrchatCheck(groupStatus, sync),
      formsCheck(spam, config.RATE_LIMIT_APPLICATIONS_SITE),
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
      membersOnly,
      insight,
      passwordChangeDue: own?.due ?? false,
      error: null,
    };
  } catch (error) {
    log.error("failed to read the dashboard figures", { error });
    return { figures: null, checks: [], membersOnly: null, insight: null, passwordChangeDue: false, error: "Failed to fetch dashboard stats" };
  }
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
  if (!parsed.success) return data({ error: "Unknown action." }, { status: 400 });
  const change = parsed.data;
  // One's own passphrase is everyone's; the site's operations and the calendar are the admins'.
  if (change.intent === "retry-notifications") await requireStaff(request, context, "operations");
  if (change.intent === "sync-events" || change.intent === "import-vrchat-event") await requireStaff(request, context, "events.all");
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
  if (change.intent === "import-vrchat-event") {
    // The one way a members-only VRChat event reaches the public events: an admin's choice.
    const membersOnly = await vrchat.groupData.membersOnly();
    const imported = await importEventByAdmin(db, membersOnly?.events ?? [], change.vrchatEventId, viewer.id);
    if (!imported) return data({ error: "That event is no longer in the group's VRChat calendar." }, { status: 404 });
    log.info("an admin imported a members-only VRChat event", { eventId: imported.id });
    return { message: imported.created ? "Imported: it is now on the events page." : "It was already a site event." };
  }
  if (change.newPassword !== change.confirm) return data({ error: "Passwords do not match" }, { status: 400 });
  // The Security page's allowance: the current passphrase is checked here too.
  if (!(await withinPassphraseChecks(db, viewer.id, new Date()))) return data({ error: TOO_MANY_CHECKS }, { status: 429 });
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
    return data({ message: "Passphrase changed. Your other sessions were signed out." }, { headers: withAuthCookies(headers) });
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
  const timeZone = useViewerTimeZone();
  const formatDate = (iso: string) => formatShortDate(new Date(iso), timeZone);
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="font-display text-4xl text-mist-100">The Sanctum</h1>
        <SignOutButton />
      </div>
      {loaderData.passwordChangeDue ? (
        <p role="alert" className="rounded-xl border border-ember-400/50 bg-ember-500/10 px-4 py-3 text-ember-300">
          {PASSWORD_CHANGE_DUE} <a href="#change-passphrase" className="font-semibold underline underline-offset-4">Change it now</a>
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
