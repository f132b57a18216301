/**
 * The outbox's two workers: the staff's notifications (Telegram, Google Sheets, the Discord
 * webhook), and the actions (a decision's in VRChat and Discord, the calendar, the review channel,
 * the announcements, the events' roles), one job at a time per service so each service's calls keep
 * their pace; a decision's actions go first (see features/notifications/outbox.server).
 */
import type { Database } from "~/db/db.server";
import { recordActionOutcome } from "~/features/applications/linked-accounts.server";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import { createReviewChannel } from "~/features/discord/discord-review.server";
import { createDiscordAnnouncementChannel } from "~/features/notifications/discord.server";
import type { NotificationChannel } from "~/features/notifications/notification";
import { createOutboxWorker, type OutboxWorker } from "~/features/notifications/outbox.server";
import { markPublicationFailed } from "~/features/vrchat/calendar-publisher.server";
import type { VRChatServices } from "~/features/vrchat/vrchat.server";
import { announcementChannels, markPlaceFailed } from "~/flows/announcements.server";
import { discordEventChannel, markDiscordEventFailed } from "~/flows/discord-events.server";
import { eventRoleChannel, eventRoleServices, recordRoleOutcome } from "~/flows/event-role.server";
import { memberRoleChannel, memberRoleSettled } from "~/flows/member-roles.server";
import { staffAlertChannel } from "~/flows/tripwire-watch.server";
import { roleBridgeServices, roleLinkReadChannel } from "~/flows/role-bridge.server";
import type { Config } from "~/utils/env.server";
import { defaultLanguage } from "~/utils/language.server";
import { log } from "~/utils/log.server";

export function startWorkers({ db, config, channels, vrchat, discord }: { db: Database; config: Config; channels: NotificationChannel[]; vrchat: VRChatServices; discord: DiscordBot | null }): {
  notifications: OutboxWorker;
  actions: OutboxWorker;
} {
  const notifications = createOutboxWorker(db, channels, { maxAttempts: config.OUTBOX_MAX_ATTEMPTS });
  const actionChannels = [
    ...(vrchat.membership && vrchat.membershipActions ? [vrchat.membership.channel, vrchat.membership.bans.channel] : []),
    // Events published to VRChat's calendar keep the same pace as every other call to VRChat.
    ...(vrchat.calendar ? [vrchat.calendar.publisher.channel] : []),
    ...(discord?.channels ?? []),
    // Review in Discord: its posts, their edits and the daily reminder keep the bot's one pace too.
    ...(discord && config.DISCORD_REVIEW_CHANNEL_ID ? [createReviewChannel({ db, bot: discord, channelId: config.DISCORD_REVIEW_CHANNEL_ID })] : []),
    // Events' own roles in VRChat (given, taken).
    ...(vrchat.roles ? [eventRoleChannel(eventRoleServices({ db, vrchat, notifications: { wake: () => actions.wake() } }), config.VRCHAT_TIMEOUT_SECONDS * 1000)] : []),
    // Announcements written in the Sanctum: a VRChat post, a message in the announcement channel.
    ...announcementChannels({
      db,
      posts: vrchat.posts,
      discord,
      discordChannelId: config.DISCORD_ANNOUNCE_CHANNEL_ID ?? null,
      discordGuildId: config.DISCORD_GUILD_ID ?? null,
      siteOrigin: config.PUBLIC_URL,
      defaultLanguage,
      timeoutMs: Math.max(config.VRCHAT_TIMEOUT_SECONDS, config.NOTIFICATION_TIMEOUT_SECONDS) * 1000,
    }),
    // Events listed among the Discord server's events.
    ...(discord
      ? [discordEventChannel({ db, bot: discord, siteOrigin: config.PUBLIC_URL, apiOrigin: new URL(config.VRCHAT_API_URL).origin, timeoutMs: config.NOTIFICATION_TIMEOUT_SECONDS * 1000 })]
      : []),
    // Roles given back (an owner's undo of the tripwire), in VRChat or Discord.
    memberRoleChannel({ db, vrchat: vrchat.memberRoles, discord, timeoutMs: Math.max(config.VRCHAT_TIMEOUT_SECONDS, config.NOTIFICATION_TIMEOUT_SECONDS) * 1000 }),
    // The role bridge's reads of who holds a linked role (paged).
    roleLinkReadChannel(roleBridgeServices({ db, config, vrchat, discord, wake: () => actions.wake() }), Math.max(config.VRCHAT_TIMEOUT_SECONDS, config.NOTIFICATION_TIMEOUT_SECONDS) * 1000),
    // The tripwire's alerts to the owners and the staff channel.
    ...(discord ? [staffAlertChannel(discord)] : []),
    // The group's lines for members (an event's instance open).
    ...(config.DISCORD_ANNOUNCE_WEBHOOK_URL
      ? [createDiscordAnnouncementChannel({ webhookUrl: config.DISCORD_ANNOUNCE_WEBHOOK_URL, timeoutMs: config.NOTIFICATION_TIMEOUT_SECONDS * 1000 })]
      : []),
  ];
  const actions: OutboxWorker = createOutboxWorker(db, actionChannels, {
    maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
    batchSize: 1,
    pollIntervalMs: 2_000,
    onSettled: (job, outcome) => {
      if (job.target === "vrchat_calendar") {
        return outcome.kind === "delivered" ? Promise.resolve() : markPublicationFailed(db, job.payload, outcome.error);
      }
      if (job.target === "discord_review") {
        if (outcome.kind !== "delivered") log.warn("a Discord review message could not be posted or edited", { error: outcome.error });
        return Promise.resolve();
      }
      if (job.target === "discord_announcement") {
        if (outcome.kind !== "delivered") log.warn("an announcement could not be posted in Discord", { error: outcome.error });
        return Promise.resolve();
      }
      if (job.target === "vrchat_event_role") return recordRoleOutcome(db, job.payload, outcome);
      if (job.target === "discord_event") {
        return outcome.kind === "delivered" ? Promise.resolve() : markDiscordEventFailed(db, job.payload, outcome.error);
      }
      if (job.target === "vrchat_post" || job.target === "discord_post") {
        return outcome.kind === "delivered" ? Promise.resolve() : markPlaceFailed(db, job.payload, outcome.error);
      }
      if (job.target === "member_role") {
        if (outcome.kind !== "delivered") log.warn("a member's role could not be given or taken", { error: outcome.error });
        return memberRoleSettled(db, job.payload);
      }
      if (job.target === "role_link_read") {
        if (outcome.kind !== "delivered") log.warn("the holders of a linked role could not be read", { error: outcome.error });
        return Promise.resolve();
      }
      if (job.target === "staff_alert") {
        if (outcome.kind !== "delivered") log.warn("a tripwire alert could not be sent", { error: outcome.error });
        return Promise.resolve();
      }
      // A ban's jobs: their state is what the Bans page shows.
      if (job.target === "vrchat_ban" || job.target === "discord_ban") {
        if (outcome.kind !== "delivered") log.warn("a ban could not be carried out", { target: job.target, error: outcome.error });
        return Promise.resolve();
      }
      const text = outcome.kind === "delivered" ? (outcome.result ?? "Done") : `Failed: ${outcome.error}`;
      return recordActionOutcome(db, job.target === "vrchat_membership" ? "vrchat" : "discord", job.payload, text);
    },
  });
  notifications.start();
  actions.start();
  if (channels.length > 0) log.info("notifications enabled", { targets: channels.map((c) => c.target) });
  return { notifications, actions };
}
