/**
 * The Sanctum's dashboard, read for the staff member looking (reads only): the figures, how each part
 * of the site is doing (the database, sign-ins, e-mail, the notification channels, the actions in
 * VRChat and Discord, VRChat's data and calendar, the public forms' defences), the trends, and what
 * VRChat shows to members only (to those who may make it public).
 */
import { eq } from "drizzle-orm";
import type { AppContext } from "~/context";
import { pingDatabase } from "~/db/db.server";
import type { StaffRole } from "~/db/enums";
import { profiles } from "~/db/schema";
import { accountSignInFailures, FREE_FAILURES_ACCOUNT_WIDE } from "~/features/accounts/sign-in-guard.server";
import { countApplications } from "~/features/applications/applications.server";
import { applicationInsight } from "~/features/applications/insight.server";
import { spamDefenceFigures } from "~/features/applications/spam-guard.server";
import { countEvents } from "~/features/events/events.server";
import { channelHealth, type ChannelHealth } from "~/features/notifications/outbox.server";
import type { SystemCheck } from "~/features/sanctum/dashboard";
import type { InsightData } from "~/features/sanctum/insight-panel";
import { lastSync, membersOnlyListing } from "~/features/vrchat/event-sync.server";
import { GROUP_PARTS, type GroupPart } from "~/features/vrchat/group-data";
import type { GroupDataStatus } from "~/features/vrchat/group-data.server";
import { listGroupTrend, trendPeriod, type TrendRange } from "~/features/vrchat/group-trends.server";
import type { VRChatErrorKind } from "~/features/vrchat/vrchat-error";
import { featureStates, type FeatureState } from "~/features/connections/features";
import { lastLooks } from "~/flows/connection-checks.server";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { log } from "~/utils/log.server";
import { allows } from "~/utils/roles";

const CHANNEL_NAMES = { telegram: "Telegram", google_sheets: "Google Sheets", discord: "Discord" } as const;

/** Decisions' actions: retried one by one from the applications' cards, where each one's reason shows. */
const ACTION_NAMES = {
  vrchat_membership: m.check_actions_vrchat,
  discord_role: m.check_actions_discord_role,
  discord_dm: m.check_actions_discord_dm,
  discord_review: m.check_actions_discord_review,
} as const;

const lastError = (error: string | null | undefined) => (error ? m.check_last_error({ error }) : "");

function actionCheck(action: ChannelHealth<keyof typeof ACTION_NAMES>): SystemCheck {
  return {
    name: ACTION_NAMES[action.target](),
    ok: action.failed === 0,
    detail:
      action.failed > 0
        ? `${m.check_failed({ count: formatCount(action.failed) })}${action.target === "discord_review" ? "" : m.check_failed_open()}${lastError(action.lastError)}`
        : action.lastDeliveredAt
          ? `${m.check_last_done({ when: utc(action.lastDeliveredAt) })}${action.pending ? m.check_and_waiting({ count: formatCount(action.pending) }) : ""}`
          : action.pending
            ? m.check_waiting({ count: formatCount(action.pending) })
            : m.check_nothing_done(),
  };
}

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** How a part's failure reads in the dashboard: not answering is not the same as answering oddly. */
const FAILURE_KIND: Record<VRChatErrorKind, () => string> = {
  unreachable: m.vrchat_fail_unreachable,
  "rate-limited": m.vrchat_fail_rate_limited,
  "refused-shape": m.vrchat_fail_refused_shape,
  forbidden: m.vrchat_fail_forbidden,
  auth: m.vrchat_fail_auth,
  http: m.vrchat_fail_http,
};

const PART_NAMES: Record<GroupPart, () => string> = {
  group: m.part_group,
  instances: m.part_instances,
  posts: m.part_posts,
  events: m.part_events,
  members: m.part_members,
};

/** Each part that failed, since when and why; items left out; a calendar month cut short. */
function partProblems(parts: GroupDataStatus["parts"]): string[] {
  if (!parts) return [];
  return GROUP_PARTS.flatMap((part) => {
    const status = parts[part];
    const name = PART_NAMES[part]();
    const lines: string[] = [];
    if (status.lastError && status.lastErrorKind) {
      const since = status.lastErrorAt ? m.part_since({ when: utc(new Date(status.lastErrorAt)) }) : "";
      const last = status.fetchedAt ? m.part_showing({ when: utc(new Date(status.fetchedAt)) }) : m.part_nothing_read();
      lines.push(m.part_failure({ part: name, kind: FAILURE_KIND[status.lastErrorKind](), since, error: status.lastError, last }));
    }
    if (status.dropped > 0) lines.push(m.part_dropped({ part: name, count: formatCount(status.dropped) }));
    if (status.note) lines.push(m.part_note({ part: name, note: status.note }));
    return lines;
  });
}

function vrchatCheck(status: GroupDataStatus, sync: Awaited<ReturnType<typeof lastSync>>): SystemCheck {
  if (status.source !== "vrchat") {
    return { name: "VRChat", ok: true, detail: status.source === "demo" ? m.check_vrchat_demo() : m.check_vrchat_off() };
  }
  const problems = partProblems(status.parts);
  const failing = !!status.lastError || (status.parts ? GROUP_PARTS.some((part) => status.parts![part].lastError) : false);
  const synced = sync?.finishedAt && sync.result ? { when: utc(sync.finishedAt), added: formatCount(sync.result.added), updated: formatCount(sync.result.updated), skipped: formatCount(sync.result.skipped), errors: formatCount(sync.result.errors.length) } : null;
  const parts = [
    status.fetchedAt ? m.check_group_data_from({ when: utc(status.fetchedAt) }) : m.check_no_group_data(),
    status.lastError
      ? status.lastErrorAt
        ? m.check_refresh_failed_at({ when: utc(status.lastErrorAt), error: status.lastError })
        : m.check_refresh_failed({ error: status.lastError })
      : null,
    ...problems,
    synced ? (sync!.result!.errors.length ? m.check_calendar_synced_errors(synced) : m.check_calendar_synced(synced)) : m.check_calendar_not_synced(),
  ];
  return { name: "VRChat", ok: !failing, detail: parts.filter(Boolean).join(m.check_list_separator()), canSync: true };
}

/** The public forms' defences over the last 24 hours; failing while the site-wide ceiling is being hit. */
function formsCheck(spam: Awaited<ReturnType<typeof spamDefenceFigures>>, ceiling: number): SystemCheck {
  const { refused } = spam;
  const count = (value: number) => formatCount(value);
  const counts = [
    refused["site-ceiling"] ? m.forms_site_ceiling({ count: count(refused["site-ceiling"]), ceiling: count(ceiling) }) : null,
    refused["client-limit"] ? m.forms_client_limit({ count: count(refused["client-limit"]) }) : null,
    refused["too-quick"] ? m.forms_too_quick({ count: count(refused["too-quick"]) }) : null,
    refused.honeypot ? m.forms_honeypot({ count: count(refused.honeypot) }) : null,
    refused.duplicate ? m.forms_duplicate({ count: count(refused.duplicate) }) : null,
    refused["probe-limit"] ? m.forms_probe_limit({ count: count(refused["probe-limit"]) }) : null,
  ].filter(Boolean);
  const ceilingHit = spam.ceilingLastHitAt ? m.forms_ceiling_hit({ minutes: count(spam.ceilingMinutes), when: utc(spam.ceilingLastHitAt) }) : "";
  const recent = !!spam.ceilingLastHitAt && Date.now() - spam.ceilingLastHitAt.getTime() < 60 * 60_000;
  return {
    name: m.check_forms(),
    ok: !recent,
    detail: counts.length > 0 ? m.forms_refused({ ceiling: ceilingHit, counts: counts.join(m.forms_list_separator()) }) : m.forms_nothing_refused(),
  };
}

/** The dashboard for the staff member looking: `range`, the trends' period. */
/** The Connections page in one line: how many features work, and each one missing something with what. */
function connectionsCheck(features: FeatureState[]): SystemCheck {
  const missing = features.filter((feature) => feature.state === "missing");
  const working = features.filter((feature) => feature.state === "works").length;
  return {
    name: m.conn_title(),
    ok: missing.length === 0,
    detail: [m.conn_summary({ working, missing: missing.length }), ...missing.map((feature) => `${feature.label}: ${feature.detail ?? ""}`)].join(m.check_list_separator()),
  };
}

export async function readDashboard(
  { db, notifications, mailTransport, vrchat, discord, config }: Pick<AppContext, "db" | "notifications" | "mailTransport" | "vrchat" | "discord" | "config">,
  viewer: { id: string; email: string; role: StaffRole },
  range: TrendRange,
) {
  const actionTargets = [
    ...(vrchat.membershipActions ? (["vrchat_membership"] as const) : []),
    ...(discord ? (["discord_role", "discord_dm"] as const) : []),
    ...(discord && config.DISCORD_REVIEW_CHANNEL_ID ? (["discord_review"] as const) : []),
  ];
  try {
    const now = new Date();
    const [events, applications, channels, actions, , groupStatus, sync, membersOnly, spam, [own], signInFailures, groupTrend, applicationTrend, looks] = await Promise.all([
      countEvents(db, new Date()),
      countApplications(db),
      channelHealth(db, notifications.targets),
      channelHealth(db, actionTargets),
      pingDatabase(db),
      vrchat.groupData.status(),
      lastSync(db),
      // What only members may see reaches only those who may make it public.
      allows(viewer.role, "group.private") ? vrchat.groupData.membersOnly().then((items) => membersOnlyListing(db, items, new Date())) : Promise.resolve(null),
      spamDefenceFigures(db, config.RATE_LIMIT_APPLICATIONS_SITE, now),
      db.select({ due: profiles.passwordChangeDue }).from(profiles).where(eq(profiles.id, viewer.id)),
      accountSignInFailures(db, viewer.email, now),
      vrchat.groupData.source === "vrchat" ? listGroupTrend(db, range, now) : Promise.resolve(null),
      applicationInsight(db, now),
      // What works with the connections (the Connections page's summary), for the owners and admins.
      allows(viewer.role, "roles") ? lastLooks(db) : Promise.resolve(null),
    ]);
    const period = trendPeriod(range, now);
    const insight: InsightData = { range, period: { from: period.from.toISOString(), to: period.to.toISOString() }, group: groupTrend, weeks: applicationTrend.weeks, decisions: { group: applicationTrend.group, event: applicationTrend.event } };
    const checks: SystemCheck[] = [
      { name: m.check_database(), ok: true, detail: m.check_database_ok() },
      {
        name: m.check_sign_in(),
        ok: signInFailures.failures < FREE_FAILURES_ACCOUNT_WIDE,
        detail: m.check_sign_in_detail({
          count: formatCount(signInFailures.failures),
          last: signInFailures.lastFailedAt ? m.check_sign_in_last({ when: utc(signInFailures.lastFailedAt) }) : "",
          free: formatCount(FREE_FAILURES_ACCOUNT_WIDE),
        }),
      },
      {
        name: m.check_email(),
        ok: true,
        detail: mailTransport === "smtp" ? m.check_email_smtp() : m.check_email_log(),
      },
      ...channels.map((channel) => ({
        name: CHANNEL_NAMES[channel.target],
        target: channel.target,
        failed: channel.failed,
        ok: channel.failed === 0,
        detail:
          channel.failed > 0
            ? `${m.check_notifications_failed({ count: formatCount(channel.failed) })}${lastError(channel.lastError)}`
            : channel.lastDeliveredAt
              ? `${m.check_last_delivered({ when: utc(channel.lastDeliveredAt) })}${channel.pending ? m.check_and_waiting({ count: formatCount(channel.pending) }) : ""}`
              : channel.pending
                ? m.check_waiting({ count: formatCount(channel.pending) })
                : m.check_nothing_sent(),
      })),
      ...actions.map(actionCheck),
      vrchatCheck(groupStatus, sync),
      formsCheck(spam, config.RATE_LIMIT_APPLICATIONS_SITE),
      ...(looks ? [connectionsCheck(featureStates(config, looks.facts))] : []),
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
    return { figures: null, checks: [], membersOnly: null, insight: null, passwordChangeDue: false, error: m.dash_fetch_failed() };
  }
}

