/**
 * What works with the connections as they stand: each feature that depends on one, with what it
 * needs, judged from the last live look at each connection (flows/connection-checks) and the
 * settings that turn features on. Plain words for the owner, from the message catalogue.
 */
import { m } from "~/paraglide/messages";
import type { Config } from "~/utils/env.server";
import { has, type DiscordPermission } from "./discord-permissions";

export interface Named {
  id: string;
  name: string;
}

export type VRChatFacts =
  | { ok: true; botUserId: string; botName: string; twoFactor: boolean; groups: Named[]; group: Named | null; member: boolean; permissions: string[] }
  | { ok: false; error: string };

export interface DiscordChannelFacts extends Named {
  type: number;
  /** The bot's permissions in it (a bigint's digits). */
  permissions: string;
}

export type DiscordFacts =
  | {
      ok: true;
      botId: string;
      botName: string;
      guilds: Named[];
      inGuild: boolean;
      /** The bot's permissions in the server (a bigint's digits). */
      permissions: string;
      channels: DiscordChannelFacts[];
      roles: (Named & { position: number; managed: boolean })[];
      /** The position of the bot's highest role. */
      botTop: number;
    }
  | { ok: false; error: string };

export type TelegramFacts = { ok: true; botName: string; chatTitle: string } | { ok: false; error: string };
export type SheetsFacts = { ok: true; title: string } | { ok: false; error: string };
export type MailFacts = { ok: true } | { ok: false; error: string };

export interface ConnectionFacts {
  vrchat?: VRChatFacts;
  discord?: DiscordFacts;
  telegram?: TelegramFacts;
  sheets?: SheetsFacts;
  mail?: MailFacts;
}

export type FeatureArea = keyof ConnectionFacts;

export interface FeatureState {
  key: string;
  area: FeatureArea;
  label: string;
  /** works; missing (with what); off (a switch or a setting turns it on); unread (no look yet). */
  state: "works" | "missing" | "off" | "unread";
  detail: string | null;
}

/** VRChat's names for its group permissions, as its group settings show them. */
export const VRCHAT_PERMISSION_NAMES: Record<string, string> = {
  "group-bans-manage": "Manage Group Bans",
  "group-calendar-manage": "Manage Group Calendar",
  "group-invites-manage": "Manage Group Invites",
  "group-members-remove": "Remove Group Members",
  "group-instance-open-create": "Create Members-Only Group Instances",
  "group-instance-manage": "Manage Group Instances",
  "group-announcement-manage": "Manage Group Announcements",
  "group-audit-view": "View Audit Log",
  "group-roles-assign": "Assign Group Roles",
  "group-roles-manage": "Manage Group Roles",
};

/** Discord's names for its permissions, as its server settings show them. */
const DISCORD_PERMISSION_NAMES: Record<DiscordPermission, string> = {
  BAN_MEMBERS: "Ban Members",
  ADMINISTRATOR: "Administrator",
  VIEW_AUDIT_LOG: "View Audit Log",
  VIEW_CHANNEL: "View Channels",
  SEND_MESSAGES: "Send Messages",
  EMBED_LINKS: "Embed Links",
  ATTACH_FILES: "Attach Files",
  MANAGE_ROLES: "Manage Roles",
  MANAGE_EVENTS: "Manage Events",
};

const list = (names: string[]) => names.join(", ");

function vrchatFeatures(config: Config, facts: VRChatFacts | undefined): FeatureState[] {
  if (!config.VRCHAT_GROUP_ID || !config.VRCHAT_USERNAME) return [];
  const wants: { key: string; label: string; on: boolean; switchName?: string; needs: string[] }[] = [
    { key: "vrchat.decisions", label: m.conn_f_vrchat_decisions(), on: config.VRCHAT_MEMBERSHIP_ACTIONS, switchName: "VRCHAT_MEMBERSHIP_ACTIONS", needs: ["group-invites-manage"] },
    { key: "vrchat.bans", label: m.conn_f_vrchat_bans(), on: config.VRCHAT_MEMBERSHIP_ACTIONS, switchName: "VRCHAT_MEMBERSHIP_ACTIONS", needs: ["group-bans-manage"] },
    { key: "vrchat.join-requests", label: m.conn_f_vrchat_join_requests(), on: config.VRCHAT_READ_JOIN_REQUESTS, switchName: "VRCHAT_READ_JOIN_REQUESTS", needs: ["group-invites-manage"] },
    { key: "vrchat.calendar", label: m.conn_f_vrchat_calendar(), on: config.VRCHAT_PUBLISH_EVENTS, switchName: "VRCHAT_PUBLISH_EVENTS", needs: ["group-calendar-manage"] },
    { key: "vrchat.instances", label: m.conn_f_vrchat_instances(), on: config.VRCHAT_OPEN_INSTANCES, switchName: "VRCHAT_OPEN_INSTANCES", needs: ["group-instance-open-create", "group-instance-manage", "group-roles-manage", "group-roles-assign"] },
    { key: "vrchat.posts", label: m.conn_f_vrchat_posts(), on: true, needs: ["group-announcement-manage"] },
    { key: "vrchat.moderation", label: m.conn_f_vrchat_moderation(), on: true, needs: ["group-audit-view"] },
    { key: "vrchat.roles", label: m.conn_f_vrchat_roles(), on: true, needs: ["group-roles-assign"] },
  ];
  const live: FeatureState = { key: "vrchat.live", area: "vrchat", label: m.conn_f_vrchat_live(), state: "unread", detail: null };
  const unread = (want: (typeof wants)[number]): FeatureState => ({ key: want.key, area: "vrchat", label: want.label, state: want.on ? "unread" : "off", detail: want.on ? null : m.conn_off_switch({ setting: want.switchName ?? "" }) });
  if (!facts) return [live, ...wants.map(unread)];
  if (!facts.ok) return [{ ...live, state: "missing", detail: facts.error }, ...wants.map((want) => (want.on ? { ...unread(want), state: "missing" as const, detail: m.conn_needs_vrchat() } : unread(want)))];
  if (!facts.group || !facts.member) {
    const detail = m.conn_not_in_group();
    return [{ ...live, state: "missing", detail }, ...wants.map((want) => (want.on ? { ...unread(want), state: "missing" as const, detail } : unread(want)))];
  }
  const all = facts.permissions.includes("*");
  return [
    { ...live, state: "works", detail: null },
    ...wants.map((want): FeatureState => {
      if (!want.on) return unread(want);
      const lacking = all ? [] : want.needs.filter((need) => !facts.permissions.includes(need));
      return lacking.length === 0
        ? { key: want.key, area: "vrchat", label: want.label, state: "works", detail: null }
        : { key: want.key, area: "vrchat", label: want.label, state: "missing", detail: m.conn_needs({ what: list(lacking.map((need) => VRCHAT_PERMISSION_NAMES[need] ?? need)) }) };
    }),
  ];
}

function discordFeatures(config: Config, facts: DiscordFacts | undefined): FeatureState[] {
  if (!config.DISCORD_BOT_TOKEN || !config.DISCORD_GUILD_ID) return [];
  const channel = (id: string | undefined) => (facts?.ok && id ? facts.channels.find((one) => one.id === id) : undefined);
  const wants: { key: string; label: string; on: boolean; check: () => string | null }[] = [];
  const inServer = (needs: DiscordPermission[]) => () => {
    if (!facts?.ok) return null;
    const lacking = needs.filter((need) => !has(BigInt(facts.permissions), need));
    return lacking.length > 0 ? m.conn_needs({ what: list(lacking.map((need) => DISCORD_PERMISSION_NAMES[need])) }) : null;
  };
  const inChannel = (id: string | undefined, needs: DiscordPermission[]) => () => {
    if (!facts?.ok || !id) return null;
    const found = channel(id);
    if (!found) return m.conn_channel_gone({ id });
    const lacking = needs.filter((need) => !has(BigInt(found.permissions), need));
    return lacking.length > 0 ? m.conn_needs_in({ what: list(lacking.map((need) => DISCORD_PERMISSION_NAMES[need])), channel: `#${found.name}` }) : null;
  };
  const memberRole = config.DISCORD_MEMBER_ROLE_ID;
  wants.push({
    key: "discord.member-role",
    label: m.conn_f_discord_member_role(),
    on: Boolean(memberRole),
    check: () => {
      if (!facts?.ok || !memberRole) return null;
      const role = facts.roles.find((one) => one.id === memberRole);
      if (!role) return m.conn_role_gone({ id: memberRole });
      const lacking = inServer(["MANAGE_ROLES"])();
      if (lacking) return lacking;
      return role.position >= facts.botTop ? m.conn_role_above({ role: role.name }) : null;
    },
  });
  wants.push({ key: "discord.bans", label: m.conn_f_discord_bans(), on: true, check: inServer(["BAN_MEMBERS"]) });
  wants.push({ key: "discord.review", label: m.conn_f_discord_review(), on: Boolean(config.DISCORD_REVIEW_CHANNEL_ID), check: inChannel(config.DISCORD_REVIEW_CHANNEL_ID, ["VIEW_CHANNEL", "SEND_MESSAGES", "EMBED_LINKS"]) });
  wants.push({ key: "discord.announcements", label: m.conn_f_discord_announcements(), on: Boolean(config.DISCORD_ANNOUNCE_CHANNEL_ID), check: inChannel(config.DISCORD_ANNOUNCE_CHANNEL_ID, ["VIEW_CHANNEL", "SEND_MESSAGES", "EMBED_LINKS", "ATTACH_FILES"]) });
  const staffChannel = config.DISCORD_STAFF_CHANNEL_ID ?? config.DISCORD_REVIEW_CHANNEL_ID;
  wants.push({ key: "discord.staff", label: m.conn_f_discord_staff(), on: Boolean(staffChannel), check: inChannel(staffChannel, ["VIEW_CHANNEL", "SEND_MESSAGES"]) });
  wants.push({ key: "discord.events", label: m.conn_f_discord_events(), on: true, check: inServer(["MANAGE_EVENTS"]) });
  wants.push({ key: "discord.moderation", label: m.conn_f_discord_moderation(), on: true, check: inServer(["VIEW_AUDIT_LOG"]) });
  wants.push({ key: "discord.roles", label: m.conn_f_discord_roles(), on: true, check: inServer(["MANAGE_ROLES"]) });
  const bot: FeatureState = { key: "discord.bot", area: "discord", label: m.conn_f_discord_bot(), state: "unread", detail: null };
  const base = (want: (typeof wants)[number]): FeatureState => ({ key: want.key, area: "discord", label: want.label, state: want.on ? "unread" : "off", detail: want.on ? null : m.conn_off_setting() });
  if (!facts) return [bot, ...wants.map(base)];
  const down = !facts.ok ? facts.error : !facts.inGuild ? m.conn_not_in_server() : null;
  if (down) return [{ ...bot, state: "missing", detail: down }, ...wants.map((want) => (want.on ? { ...base(want), state: "missing" as const, detail: m.conn_needs_discord() } : base(want)))];
  return [
    { ...bot, state: "works", detail: null },
    ...wants.map((want): FeatureState => {
      if (!want.on) return base(want);
      const missing = want.check();
      return { ...base(want), state: missing ? "missing" : "works", detail: missing };
    }),
  ];
}

function simple(area: "telegram" | "sheets" | "mail", label: string, on: boolean, facts: TelegramFacts | SheetsFacts | MailFacts | undefined, offDetail: string): FeatureState {
  if (!on) return { key: area, area, label, state: "off", detail: offDetail };
  if (!facts) return { key: area, area, label, state: "unread", detail: null };
  return facts.ok ? { key: area, area, label, state: "works", detail: null } : { key: area, area, label, state: "missing", detail: facts.error };
}

/** Every feature that depends on a connection, as the last looks found it. */
export function featureStates(config: Config, facts: ConnectionFacts): FeatureState[] {
  return [
    ...vrchatFeatures(config, facts.vrchat),
    ...discordFeatures(config, facts.discord),
    simple("telegram", m.conn_f_telegram(), Boolean(config.TELEGRAM_BOT_TOKEN && config.TELEGRAM_CHAT_ID), facts.telegram, m.conn_off_setting()),
    simple("sheets", m.conn_f_sheets(), Boolean(config.GOOGLE_SHEETS_ID), facts.sheets, m.conn_off_setting()),
    simple("mail", m.conn_f_mail(), Boolean(config.SMTP_URL), facts.mail, m.conn_mail_off()),
  ];
}
