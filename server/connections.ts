/**
 * What the server runs with its connections: VRChat, the Discord bot and its sign-in, the staff's
 * notification channels, the mail, the outbox's workers and the schedule, all made from one
 * configuration (the environment, and what the owner saved on the Connections page). When the saved
 * settings change (this process's save, or another process's, seen by a look at their revision every
 * few seconds) a new set is made and takes over, and the old one stops once its work in hand is done:
 * no restart.
 */
import type { Database } from "~/db/db.server";
import { createDiscordBot, type DiscordBot } from "~/features/discord/discord-bot.server";
import { interactionKey as discordInteractionKey } from "~/features/discord/discord-review.server";
import { createDiscordOAuth, type DiscordOAuth } from "~/features/discord/discord-oauth.server";
import { buildNotificationChannels } from "~/features/notifications/channels.server";
import { effectiveConfig, readStoredSettings, settingsRevisionNow, settingsSealKey } from "~/features/connections/settings.server";
import { createVRChatServices, sharedAllowance, type VRChatServices } from "~/features/vrchat/vrchat.server";
import { createMailer, type Mailer } from "~/utils/email.server";
import type { Config } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { createHealthCheck, type HealthCheck } from "./health";
import { checkConnectionsWhenDue } from "~/flows/connection-checks.server";
import { startSchedule } from "./schedule";
import { startWorkers } from "./workers";

/** How often each process looks whether the saved settings changed. */
export const SETTINGS_LOOK_MS = 5_000;

export interface Connected {
  revision: number;
  config: Config;
  vrchat: VRChatServices;
  discord: DiscordBot | null;
  discordOAuth: DiscordOAuth | null;
  mailer: Mailer;
  targets: readonly ("telegram" | "google_sheets" | "discord")[];
  workers: ReturnType<typeof startWorkers>;
  schedule: ReturnType<typeof startSchedule>;
  health: HealthCheck;
  /** Discord's key for the review buttons' presses, when set. */
  interactionKey: ReturnType<typeof discordInteractionKey> | null;
}

interface Base {
  db: Database;
  databaseKind: "pglite" | "postgres";
  /** The site's secret (AUTH_SECRET, or the embedded database's own). */
  secret: string;
  /** The server's environment: it wins over every saved setting. */
  source: Record<string, string | undefined>;
}

async function connect({ db, databaseKind, secret }: Base, config: Config, revision: number): Promise<Connected> {
  const channels = await buildNotificationChannels(config);
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
  const vrchat = createVRChatServices(db, config, secret);
  const discord =
    config.DISCORD_BOT_TOKEN && config.DISCORD_GUILD_ID
      ? createDiscordBot({
          apiUrl: config.DISCORD_API_URL.replace(/\/+$/, ""),
          token: config.DISCORD_BOT_TOKEN,
          guildId: config.DISCORD_GUILD_ID,
          memberRoleId: config.DISCORD_MEMBER_ROLE_ID ?? null,
          siteUrl: config.PUBLIC_URL,
          timeoutMs: config.NOTIFICATION_TIMEOUT_SECONDS * 1000,
          spendShared: sharedAllowance(db),
        })
      : null;
  const discordOAuth =
    config.DISCORD_CLIENT_ID && config.DISCORD_CLIENT_SECRET
      ? createDiscordOAuth({
          clientId: config.DISCORD_CLIENT_ID,
          clientSecret: config.DISCORD_CLIENT_SECRET,
          authorizeUrl: config.DISCORD_OAUTH_URL,
          apiUrl: config.DISCORD_API_URL.replace(/\/+$/, ""),
          redirectUri: `${config.PUBLIC_URL}/admin/discord-link`,
          applicantRedirectUri: `${config.PUBLIC_URL}/applications/discord-link`,
          siteUrl: config.PUBLIC_URL,
          timeoutMs: config.NOTIFICATION_TIMEOUT_SECONDS * 1000,
        })
      : null;
  const workers = startWorkers({ db, config, channels, vrchat, discord });
  const targets = channels.map((channel) => channel.target);
  const schedule = startSchedule({
    db,
    databaseKind,
    config,
    vrchat,
    discord,
    targets,
    wakeActions: () => workers.actions.wake(),
    lookAtConnections: () => checkConnectionsWhenDue({ db, secret }, config, revision),
    secret,
  });
  const health = createHealthCheck({ db, notifications: { targets }, vrchat, mail: mailer });
  const interactionKey = config.DISCORD_PUBLIC_KEY ? discordInteractionKey(config.DISCORD_PUBLIC_KEY) : null;
  return { revision, config, vrchat, discord, discordOAuth, mailer, targets, workers, schedule, health, interactionKey };
}

async function disconnect(connected: Connected) {
  connected.schedule.stop();
  await Promise.all([connected.workers.notifications.stop(), connected.workers.actions.stop(), connected.vrchat.groupData.settle(), connected.vrchat.eventSync.settle()]);
}

function describe(connected: Connected) {
  const { vrchat, discord, targets, config } = connected;
  if (vrchat.membershipActions) log.info("decisions act in VRChat (VRCHAT_MEMBERSHIP_ACTIONS)");
  if (vrchat.calendar) log.info("events can be published to the group's VRChat calendar (VRCHAT_PUBLISH_EVENTS)");
  if (discord) log.info("the Discord bot is on", { memberRole: discord.roleConfigured });
  if (vrchat.groupData.source === "vrchat") log.info("VRChat group data enabled", { groupId: config.VRCHAT_GROUP_ID });
  else if (vrchat.groupData.source === "demo") log.info("VRChat is not configured: the demo group is shown");
  if (targets.length > 0) log.info("notifications enabled", { targets });
  if (connected.mailer.transport === "log") log.info("no SMTP_URL: password reset emails are written to this log");
}

export interface LiveConnections {
  current(): Connected;
  /** Takes the saved settings now if they changed (a save in this process calls it). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts with the environment and the saved settings. A saved setting that would not start the site
 * (a secret that no longer opens, leaving its pair alone) is logged and the environment alone used.
 */
export async function startConnections(base: Base, environmentConfig: Config): Promise<LiveConnections> {
  const key = settingsSealKey(base.secret);
  async function configNow(): Promise<{ config: Config; revision: number }> {
    const stored = await readStoredSettings(base.db, key);
    try {
      return { config: effectiveConfig(base.source, stored.values), revision: stored.revision };
    } catch (error) {
      log.error("the saved connection settings cannot be used; the environment's alone are (fix them on the Connections page)", { error });
      return { config: environmentConfig, revision: stored.revision };
    }
  }
  const first = await configNow();
  let connected = await connect(base, first.config, first.revision);
  describe(connected);
  let changing: Promise<void> | null = null;
  let closed = false;

  async function change() {
    const revision = await settingsRevisionNow(base.db);
    if (revision === connected.revision || closed) return;
    const next = await configNow();
    let fresh: Connected;
    try {
      fresh = await connect(base, next.config, next.revision);
    } catch (error) {
      // A key file that cannot be read, say: the running set stays, and the next look tries again.
      log.error("the changed connection settings could not be taken", { error });
      return;
    }
    const old = connected;
    connected = fresh;
    log.info("took the changed connection settings", { revision: next.revision });
    describe(fresh);
    await disconnect(old);
  }
  const refresh = () => {
    changing ??= change().finally(() => {
      changing = null;
    });
    return changing;
  };
  const timer = setInterval(() => {
    refresh().catch((error: unknown) => log.error("looking for changed connection settings failed", { error }));
  }, SETTINGS_LOOK_MS);
  timer.unref();
  return {
    current: () => connected,
    refresh,
    async close() {
      closed = true;
      clearInterval(timer);
      await changing?.catch(() => undefined);
      await disconnect(connected);
    },
  };
}
