/**
 * Every job the server runs by itself, on a clock, in one list: what it does and how often. Each
 * entry point it calls is the same flow a person's action calls (opening an instance, a reminder,
 * a series' next events); each job is safe to run in several processes at once (its flow claims
 * what it works on in the database), and a failed run is logged and tried at the next tick.
 */
import type { Database } from "~/db/db.server";
import { pruneSignInFailures } from "~/features/accounts/sign-in-guard.server";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import type { VRChatServices } from "~/features/vrchat/vrchat.server";
import { eventInstanceServices, INSTANCE_LOOK_MS, openDueInstances } from "~/flows/event-instance.server";
import { askForRatings } from "~/flows/event-ratings.server";
import { ATTENDANCE_LOOK_MS, attendanceServices, markEndedEvents, readEventInstances } from "~/flows/event-attendance.server";
import { forgetOldInteractions } from "~/flows/discord-interaction.server";
import { INTEREST_READ_MS, refreshDiscordInterest } from "~/flows/discord-events.server";
import { sendDueReminders, type ReminderServices } from "~/flows/event-reminders.server";
import { keepEventRoles } from "~/flows/event-role.server";
import { eventPageUrl, keepSeries } from "~/flows/event-series.server";
import { remindWaitingApplications } from "~/flows/review-reminder.server";
import { decideServices } from "~/flows/decide.server";
import { runScreenings, SCREENING_LOOK_MS } from "~/flows/screen-applications.server";
import { BANS_READ_MS, readVRChatBans } from "~/flows/bans.server";
import { MODERATION_READ_MS, moderationLogServices, nextReadIn, readModerationLogs } from "~/flows/moderation-log.server";
import { TRIPWIRE_LOOK_MS, watchModerators } from "~/flows/tripwire-watch.server";
import { JOIN_REQUESTS_READ_MS, JOIN_REQUESTS_UNREAD, readJoinRequests } from "~/flows/join-requests.server";
import type { NotificationTarget } from "~/features/notifications/notification";
import type { Config } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { pruneRateLimits } from "~/utils/rate-limit.server";
import { makeOwnerOnly } from "./private-data-dir";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

export interface ScheduleDeps {
  db: Database;
  databaseKind: "pglite" | "postgres";
  config: Config;
  vrchat: VRChatServices;
  discord: DiscordBot | null;
  /** The staff's notification channels (a decision's refill tells them who moved up). */
  targets: readonly NotificationTarget[];
  /** Wakes the action worker once a job has queued actions. */
  wakeActions: () => void;
  /** Looks at the connections when the last look is 10 minutes old (flows/connection-checks). */
  lookAtConnections?: () => Promise<unknown>;
  /** The site's secret: signs the attendees' rating links. */
  secret?: string;
}

/** A job: run `every` ms (and once `first` ms after the start, when given), while the server runs. */
interface Job {
  name: string;
  every: number | null;
  first?: number;
  run: () => Promise<unknown>;
}

function jobsOf({ db, databaseKind, config, vrchat, discord, targets, wakeActions, lookAtConnections, secret }: ScheduleDeps): Job[] {
  const instanceServices = eventInstanceServices({ db, config, vrchat, discord, notifications: { wake: wakeActions } });
  const attendance = attendanceServices({ db, config, vrchat });
  const reminderServices: ReminderServices = {
    db,
    leads: config.EVENT_REMINDERS,
    directMessages: discord !== null,
    announce: Boolean(config.DISCORD_ANNOUNCE_WEBHOOK_URL),
    siteOrigin: config.PUBLIC_URL.replace(/\/+$/, ""),
    wake: wakeActions,
  };
  const reminding = reminderServices.leads.length > 0 && (reminderServices.directMessages || reminderServices.announce);
  const reviewChannel = discord !== null && Boolean(config.DISCORD_REVIEW_CHANNEL_ID);
  const jobs: Job[] = [
    // How many are interested in the events listed in Discord (one call, every ten minutes).
    ...(discord ? [{ name: "reading the interest in Discord's events", every: INTEREST_READ_MS, first: 30_000, run: () => refreshDiscordInterest(db, discord, new Date()) }] : []),
    // What works with the connections: a look every 10 minutes (by whichever process is first), soon after a start or a change.
    ...(lookAtConnections ? [{ name: "looking at the connections", every: MINUTE, first: 5_000, run: lookAtConnections }] : []),
    // "How was it?": each attendee who came, asked once, RATING_DELAY_MINUTES after the event's end.
    ...(secret
      ? [
          {
            name: "asking how events were",
            every: ATTENDANCE_LOOK_MS,
            first: 20_000,
            run: () => askForRatings({ db, delayMinutes: config.RATING_DELAY_MINUTES, directMessages: discord !== null, siteOrigin: config.PUBLIC_URL.replace(/\/+$/, ""), secret, wake: wakeActions }, new Date()),
          },
        ]
      : []),
    // Warm the group data's cache at the start (a visitor's page does the rest).
    { name: "warming the group data", every: null, first: 1_000, run: () => vrchat.groupData.peek() },
    // The group's public VRChat calendar, imported into the events.
    { name: "the event sync", every: config.VRCHAT_SYNC_MINUTES * MINUTE, first: 1_000, run: () => vrchat.eventSync.run("schedule") },
    // Repeating events keep their occurrences eight weeks ahead: each hour, and soon after a start.
    {
      name: "keeping repeating events ahead",
      every: HOUR,
      first: 5_000,
      run: async () => {
        const made = await keepSeries(db, eventPageUrl(config.PUBLIC_URL), new Date());
        if (made > 0) {
          log.info("made the next events of repeating series", { made });
          wakeActions();
        }
      },
    },
    // Rate-limit windows and sign-in failures older than a day are of no use; files the embedded
    // database made since are narrowed to their owner.
    {
      name: "housekeeping",
      every: HOUR,
      run: async () => {
        if (databaseKind === "pglite") await makeOwnerOnly(config.DATA_DIR);
        await pruneRateLimits(db, new Date(Date.now() - 24 * HOUR));
        await pruneSignInFailures(db, new Date());
        await forgetOldInteractions(db, new Date());
      },
    },
  ];
  // The dashboard's trend charts take a reading from each refresh; visitors start most of them, and
  // this keeps quiet hours charted too: a look every 10 minutes, which refreshes only a stale cache.
  if (vrchat.groupData.source === "vrchat") jobs.push({ name: "the trend readings", every: 10 * MINUTE, run: () => vrchat.groupData.peek() });
  // Once a day, a line in the review channel when applications have waited more than a day.
  if (reviewChannel) {
    jobs.push({
      name: "the review reminder",
      every: HOUR,
      first: MINUTE,
      run: async () => {
        if ((await remindWaitingApplications(db, `${config.PUBLIC_URL}/admin/applications`, new Date())) === "sent") wakeActions();
      },
    });
  }
  // Events' instances open by themselves at their time, and their roles are kept: a look every 30
  // seconds (within a minute of the time), and a first one soon after a start.
  if (instanceServices.instances) {
    jobs.push(
      { name: "opening events' instances", every: INSTANCE_LOOK_MS, first: 5_000, run: () => openDueInstances(instanceServices, new Date()) },
      { name: "keeping events' roles", every: INSTANCE_LOOK_MS, first: 5_000, run: () => keepEventRoles(instanceServices.roles, new Date()) },
      // Who is in each event's instance, once a minute while it runs; the marks at its end.
      { name: "reading events' instances", every: ATTENDANCE_LOOK_MS, first: 5_000, run: () => readEventInstances(attendance, new Date()) },
      { name: "marking who came", every: ATTENDANCE_LOOK_MS, first: 15_000, run: () => markEndedEvents(attendance, new Date()) },
    );
  }
  // Screening: the group's rules applied to what arrived, and again to what waited for VRChat.
  const screening = { ...decideServices({ db, config, vrchat, discord, notifications: { wake: wakeActions, targets } }), autoApprovalsPerHour: config.SCREENING_AUTO_APPROVALS_PER_HOUR };
  jobs.push({
    name: "screening applications",
    every: SCREENING_LOOK_MS,
    first: 5_000,
    run: async () => {
      const tally = await runScreenings(screening, new Date());
      if (tally.approved + tally.rejected + tally.flagged > 0) log.info("screened applications", tally);
    },
  });
  // The group's join requests in VRChat: one read of the list a minute (new ones are screened).
  const membership = vrchat.membership;
  if (membership && config.VRCHAT_READ_JOIN_REQUESTS) {
    // A failure is logged once until it changes or the list is read again (a bot without the
    // permission would otherwise say so every minute); the job keeps its one read a minute.
    let lastFailure: string | null = null;
    jobs.push({
      name: "reading join requests",
      every: JOIN_REQUESTS_READ_MS,
      first: 10_000,
      run: async () => {
        try {
          const read = await readJoinRequests(db, membership, new Date());
          lastFailure = null;
          if (read.added + read.gone > 0) log.info("read the group's join requests", read);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (message !== lastFailure) log.warn(JOIN_REQUESTS_UNREAD, { error: message });
          lastFailure = message;
        }
      },
    });
  }
  // VRChat's ban list, where Dwell acts on the group's membership: about every ten minutes.
  if (membership && vrchat.membershipActions) {
    let lastFailure: string | null = null;
    jobs.push({
      name: "reading bans",
      every: BANS_READ_MS,
      first: 20_000,
      run: async () => {
        try {
          const read = await readVRChatBans(db, membership, new Date());
          lastFailure = null;
          if (read.added + read.lifted > 0) log.info("read the group's bans in VRChat", read);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (message !== lastFailure) log.warn("could not read the group's bans from VRChat; they are read again in ten minutes", { error: message });
          lastFailure = message;
        }
      },
    });
  }
  // The moderation history: VRChat's and Discord's audit logs read every two minutes (a few pages at
  // most each), and the tripwire's look at every moderator's last minutes twice a minute (one query).
  const moderation = moderationLogServices({ db, config, vrchat, discord, notifications: { wake: wakeActions, targets } });
  if (vrchat.auditLog || discord) {
    jobs.push({
      name: "reading the audit logs",
      every: MODERATION_READ_MS,
      first: 25_000,
      // A staff member's 'Read the logs now' a moment ago counts as this read.
      run: async () => ((await nextReadIn(db, new Date())) > 0 ? null : readModerationLogs(moderation, new Date())),
    });
  }
  jobs.push({ name: "the tripwire", every: TRIPWIRE_LOOK_MS, first: 15_000, run: () => watchModerators(moderation, new Date()) });
  // Reminders before events (each once, whatever the number of processes).
  if (reminding) jobs.push({ name: "sending event reminders", every: INSTANCE_LOOK_MS, first: 5_000, run: () => sendDueReminders(reminderServices, new Date()) });
  return jobs;
}

/** Starts every job; `stop` clears their timers (a run under way finishes by itself). */
export function startSchedule(deps: ScheduleDeps): { names: string[]; stop(): void } {
  const timers: NodeJS.Timeout[] = [];
  const jobs = jobsOf(deps);
  for (const job of jobs) {
    const run = () => {
      job.run().catch((error: unknown) => log.error(`${job.name} failed`, { error }));
    };
    if (job.first !== undefined) timers.push(setTimeout(run, job.first));
    if (job.every !== null) timers.push(setInterval(run, job.every));
  }
  for (const timer of timers) timer.unref();
  return {
    names: jobs.map((job) => job.name),
    stop: () => timers.forEach((timer) => clearTimeout(timer)),
  };
}
