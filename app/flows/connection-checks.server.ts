/**
 * The live looks at each connection behind "what works, and what is missing": the bot's VRChat
 * account and its group permissions, the Discord bot's place and permissions in the server and its
 * channels, the Telegram chat, the Google Sheet, the mail server. Each look is a few calls, each
 * time-limited and never retried (a 429 is reported, not waited out). Every 10 minutes, and when the
 * owner presses 'Test' or saves; what was found is kept for every process (connection_checks).
 */
import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { z } from "zod";
import packageJson from "../../package.json" with { type: "json" };
import type { Database } from "~/db/db.server";
import { connectionChecks } from "~/db/schema";
import { channelPermissions, highestPosition, serverPermissions, type DiscordOverwrite, type DiscordRoleFacts, type MemberFacts } from "~/features/connections/discord-permissions";
import type { ConnectionFacts, DiscordFacts, FeatureArea, MailFacts, SheetsFacts, TelegramFacts, VRChatFacts } from "~/features/connections/features";
import { createGoogleSheetsChannel, parseServiceAccountKey, readServiceAccountKey } from "~/features/notifications/google-sheets.server";
import { VRChatError } from "~/features/vrchat/vrchat-error";
import { createBotClient } from "~/features/vrchat/vrchat.server";
import { m } from "~/paraglide/messages";
import { vrchatConfig, type Config } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { SMTP_STEP_TIMEOUT_MS } from "~/utils/email.server";

/** How often the connections are looked at by themselves. */
export const CONNECTION_LOOK_MS = 10 * 60 * 1000;

const checkTimeout = (config: Config) => Math.min(15, Math.max(config.VRCHAT_TIMEOUT_SECONDS, config.NOTIFICATION_TIMEOUT_SECONDS)) * 1000;

const VRChatMeSchema = z.object({ id: z.string(), displayName: z.string(), twoFactorAuthEnabled: z.boolean().optional() });
const VRChatGroupsSchema = z.array(z.object({ groupId: z.string(), name: z.string() }).loose());
const VRChatMembershipSchema = z.object({ roleIds: z.array(z.string()).default([]), mRoleIds: z.array(z.string()).default([]) }).loose().nullable();
const VRChatRolesSchema = z.array(z.object({ id: z.string(), name: z.string(), permissions: z.array(z.string()).default([]) }).loose());

function vrchatProblem(error: unknown): string {
  if (error instanceof VRChatError) {
    if (error.kind === "rate-limited") return m.conn_vrchat_slow({ seconds: Math.ceil((error.retryAfterMs ?? 60_000) / 1000) });
    if (/authenticator code/.test(error.message)) return m.conn_vrchat_code({ detail: error.message });
    // A refused login, and the pause after one, come without an HTTP status of their own.
    if (error.kind === "auth" || /\blogin\b/i.test(error.message)) return m.conn_vrchat_login({ detail: error.message });
    if (error.kind === "unreachable") return m.conn_vrchat_unreachable({ detail: error.message });
    return m.conn_vrchat_http({ detail: error.message });
  }
  return m.conn_vrchat_http({ detail: error instanceof Error ? error.message : String(error) });
}

/**
 * The bot account: signs in (with the authenticator's secret, or a person's current 6-digit code),
 * reads itself, its groups, its membership in the group and the group's roles: four calls and the login.
 */
export async function lookAtVRChat(
  { db, secret }: { db: Database; secret: string },
  config: Config,
  person?: { oneTimeCode?: string },
): Promise<VRChatFacts | null> {
  const vrchat = vrchatConfig(config);
  if (!vrchat) return null;
  const client = createBotClient(db, vrchat, secret, {
    timeoutMs: checkTimeout(config),
    maxAttempts: 1,
    oneTimeCode: person?.oneTimeCode,
    personAsked: person !== undefined,
  });
  try {
    const me = await client.get("/auth/user", VRChatMeSchema);
    const groups = await client.get(`/users/${encodeURIComponent(me.id)}/groups`, VRChatGroupsSchema);
    const named = groups.map((group) => ({ id: group.groupId, name: group.name }));
    const group = named.find((one) => one.id === vrchat.groupId) ?? null;
    const membership = await client.get(`/groups/${vrchat.groupId}/members/${encodeURIComponent(me.id)}`, VRChatMembershipSchema);
    let permissions: string[] = [];
    if (membership) {
      const roles = await client.get(`/groups/${vrchat.groupId}/roles`, VRChatRolesSchema);
      const held = new Set([...membership.roleIds, ...membership.mRoleIds]);
      permissions = [...new Set(roles.filter((role) => held.has(role.id)).flatMap((role) => role.permissions))].sort();
    }
    return {
      ok: true,
      botUserId: me.id,
      botName: me.displayName,
      twoFactor: me.twoFactorAuthEnabled ?? false,
      groups: named,
      group: group ?? (membership ? { id: vrchat.groupId, name: vrchat.groupId } : null),
      member: membership !== null,
      permissions,
    };
  } catch (error) {
    return { ok: false, error: vrchatProblem(error) };
  }
}

const DiscordUserSchema = z.object({ id: z.string(), username: z.string(), bot: z.boolean().optional() });
const DiscordGuildsSchema = z.array(z.object({ id: z.string(), name: z.string(), owner_id: z.string().optional() }).loose());
const DiscordRolesSchema = z.array(z.object({ id: z.string(), name: z.string(), position: z.number(), permissions: z.string(), managed: z.boolean().optional() }).loose());
const DiscordMemberSchema = z.object({ roles: z.array(z.string()) }).loose();
const DiscordChannelsSchema = z.array(
  z
    .object({
      id: z.string(),
      name: z.string().nullable().optional(),
      type: z.number(),
      permission_overwrites: z.array(z.object({ id: z.string(), type: z.number(), allow: z.string(), deny: z.string() })).optional(),
    })
    .loose(),
);
const DiscordGuildSchema = z.object({ id: z.string(), name: z.string(), owner_id: z.string() }).loose();

class DiscordLookFailed extends Error {}

/** Text channels and announcement channels: where the bot posts. */
const POSTABLE_CHANNEL_TYPES = new Set([0, 5]);

/** The bot: who it is, its servers, and in the chosen one its roles, its member and the channels: five calls. */
export async function lookAtDiscord(config: Config): Promise<DiscordFacts | null> {
  const token = config.DISCORD_BOT_TOKEN;
  if (!token) return null;
  const apiUrl = config.DISCORD_API_URL.replace(/\/+$/, "");
  const timeoutMs = checkTimeout(config);
  async function get<T>(path: string, schema: z.ZodType<T>, notFound?: () => T): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${apiUrl}${path}`, {
        headers: { Authorization: `Bot ${token}`, "User-Agent": `DiscordBot (${config.PUBLIC_URL}, ${packageJson.version})` },
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new DiscordLookFailed(m.conn_discord_unreachable({ detail: error instanceof Error ? error.message : String(error) }));
    }
    const body: unknown = await response.json().catch(() => null);
    if (response.status === 401) throw new DiscordLookFailed(m.conn_discord_token());
    if (response.status === 429) throw new DiscordLookFailed(m.conn_discord_slow({ seconds: Math.ceil(Number(response.headers.get("retry-after") ?? 60)) }));
    if ((response.status === 404 || response.status === 403) && notFound) return notFound();
    if (!response.ok) {
      const detail = z.object({ message: z.string() }).safeParse(body);
      throw new DiscordLookFailed(m.conn_discord_http({ status: response.status, detail: detail.success ? detail.data.message : "" }));
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new DiscordLookFailed(m.conn_discord_http({ status: response.status, detail: "unexpected answer" }));
    return parsed.data;
  }
  try {
    const me = await get("/users/@me", DiscordUserSchema);
    if (!me.bot) return { ok: false, error: m.conn_discord_token() };
    const guilds = (await get("/users/@me/guilds", DiscordGuildsSchema)).map((guild) => ({ id: guild.id, name: guild.name }));
    const guildId = config.DISCORD_GUILD_ID;
    const base = { ok: true as const, botId: me.id, botName: me.username, guilds, inGuild: false, permissions: "0", channels: [], roles: [], botTop: 0 };
    if (!guildId || !guilds.some((guild) => guild.id === guildId)) return base;
    const g = `/guilds/${guildId}`;
    const guild = await get(g, DiscordGuildSchema);
    const roles = await get(`${g}/roles`, DiscordRolesSchema);
    const member = await get(`${g}/members/${me.id}`, DiscordMemberSchema);
    const channels = await get(`${g}/channels`, DiscordChannelsSchema);
    const facts: MemberFacts = { userId: me.id, roleIds: member.roles, guildId, ownerId: guild.owner_id };
    const roleFacts: DiscordRoleFacts[] = roles.map((role) => ({ id: role.id, name: role.name, position: role.position, permissions: role.permissions }));
    return {
      ...base,
      inGuild: true,
      permissions: serverPermissions(facts, roleFacts).toString(),
      botTop: highestPosition(facts, roleFacts),
      roles: roles
        .filter((role) => role.id !== guildId)
        .sort((a, b) => b.position - a.position)
        .map((role) => ({ id: role.id, name: role.name, position: role.position, managed: role.managed ?? false })),
      channels: channels
        .filter((channel) => POSTABLE_CHANNEL_TYPES.has(channel.type))
        .map((channel) => ({
          id: channel.id,
          name: channel.name ?? channel.id,
          type: channel.type,
          permissions: channelPermissions(facts, roleFacts, (channel.permission_overwrites ?? []) as DiscordOverwrite[]).toString(),
        })),
    };
  } catch (error) {
    if (error instanceof DiscordLookFailed) return { ok: false, error: error.message };
    throw error;
  }
}

const TelegramAnswerSchema = z.object({ ok: z.boolean(), description: z.string().optional(), result: z.unknown().optional() });

/** The bot (getMe) and the chat (getChat): whether the bot reaches it. */
export async function lookAtTelegram(config: Config): Promise<TelegramFacts | null> {
  if (!config.TELEGRAM_BOT_TOKEN || !config.TELEGRAM_CHAT_ID) return null;
  const base = `${config.TELEGRAM_API_URL.replace(/\/+$/, "")}/bot${config.TELEGRAM_BOT_TOKEN}`;
  const call = async (method: string, body: Record<string, string>) => {
    const response = await fetch(`${base}/${method}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(checkTimeout(config)),
    });
    const answer = TelegramAnswerSchema.safeParse(await response.json().catch(() => null));
    return { status: response.status, answer: answer.success ? answer.data : null };
  };
  try {
    const me = await call("getMe", {});
    if (me.status === 401 || me.status === 404) return { ok: false, error: m.conn_telegram_token() };
    const botName = z.object({ username: z.string() }).safeParse(me.answer?.result);
    const chat = await call("getChat", { chat_id: config.TELEGRAM_CHAT_ID });
    if (!chat.answer?.ok) return { ok: false, error: m.conn_telegram_chat({ detail: chat.answer?.description ?? `HTTP ${chat.status}` }) };
    const title = z.object({ title: z.string().optional(), username: z.string().optional() }).safeParse(chat.answer.result);
    return { ok: true, botName: botName.success ? botName.data.username : "", chatTitle: title.success ? (title.data.title ?? title.data.username ?? config.TELEGRAM_CHAT_ID) : config.TELEGRAM_CHAT_ID };
  } catch (error) {
    return { ok: false, error: m.conn_unreachable({ detail: error instanceof Error ? error.message : String(error) }) };
  }
}

/** The service account signs in and may write to the sheet (a write of nothing). */
export async function lookAtSheets(config: Config): Promise<SheetsFacts | null> {
  if (!config.GOOGLE_SHEETS_ID) return null;
  let key;
  try {
    key = config.GOOGLE_SERVICE_ACCOUNT_FILE ? await readServiceAccountKey(config.GOOGLE_SERVICE_ACCOUNT_FILE) : parseServiceAccountKey(config.GOOGLE_SERVICE_ACCOUNT_JSON ?? "", "the saved key");
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const channel = createGoogleSheetsChannel({ spreadsheetId: config.GOOGLE_SHEETS_ID, serviceAccount: key, apiUrl: config.GOOGLE_SHEETS_API_URL, timeoutMs: checkTimeout(config) });
  const outcome = await channel.checkWritable();
  if (outcome.kind === "delivered") return { ok: true, title: config.GOOGLE_SHEETS_ID };
  return { ok: false, error: /\b403\b/.test(outcome.error) ? m.conn_sheets_share({ email: key.client_email }) : outcome.error };
}

/** The mail server answers and takes the sign-in (nodemailer's verify), within its step time. */
export async function lookAtMail(config: Config): Promise<MailFacts | null> {
  if (!config.SMTP_URL) return null;
  const stepMs = Math.min(SMTP_STEP_TIMEOUT_MS, checkTimeout(config));
  const transporter = nodemailer.createTransport({ url: config.SMTP_URL, connectionTimeout: stepMs, greetingTimeout: stepMs, socketTimeout: stepMs });
  try {
    await Promise.race([
      transporter.verify(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${Math.round((stepMs * 2) / 1000)} s`)), stepMs * 2).unref()),
    ]);
    return { ok: true };
  } catch (error) {
    // nodemailer's messages name the server and the step, never the password.
    return { ok: false, error: m.conn_mail_failed({ detail: error instanceof Error ? error.message : String(error) }) };
  } finally {
    transporter.close();
  }
}

export interface CheckDeps {
  db: Database;
  secret: string;
}

type Looks = { [A in FeatureArea]: (deps: CheckDeps, config: Config, person?: { oneTimeCode?: string }) => Promise<ConnectionFacts[A] | null> };

const LOOKS: Looks = {
  vrchat: (deps, config, person) => lookAtVRChat(deps, config, person),
  discord: (_deps, config) => lookAtDiscord(config),
  telegram: (_deps, config) => lookAtTelegram(config),
  sheets: (_deps, config) => lookAtSheets(config),
  mail: (_deps, config) => lookAtMail(config),
};

export const LOOKED_AREAS = Object.keys(LOOKS) as FeatureArea[];

/** One connection looked at now (with what was typed, for 'Test'): nothing is kept. */
export function lookAt<A extends FeatureArea>(area: A, deps: CheckDeps, config: Config, person?: { oneTimeCode?: string }): Promise<ConnectionFacts[A] | null> {
  return (LOOKS[area] as Looks[A])(deps, config, person);
}

/** Looks at the given connections with the settings in force and keeps what was found (an unset one's is forgotten). */
export async function checkConnections(deps: CheckDeps, config: Config, revision: number, areas: readonly FeatureArea[] = LOOKED_AREAS, now = new Date()) {
  await Promise.all(
    areas.map(async (area) => {
      const result = await lookAt(area, deps, config).catch((error: unknown) => {
        log.error("looking at a connection failed", { area, error });
        return { ok: false as const, error: m.conn_unreachable({ detail: error instanceof Error ? error.message : String(error) }) };
      });
      if (result === null) {
        await deps.db.delete(connectionChecks).where(eq(connectionChecks.area, area));
        return;
      }
      const row = { area, checkedAt: now, revision, result };
      await deps.db.insert(connectionChecks).values(row).onConflictDoUpdate({ target: connectionChecks.area, set: row });
    }),
  );
}

/** What the last looks found, and when. */
export async function lastLooks(db: Database): Promise<{ facts: ConnectionFacts; checkedAt: Partial<Record<FeatureArea, Date>>; revisions: Partial<Record<FeatureArea, number>> }> {
  const rows = await db.select().from(connectionChecks);
  const facts: Record<string, unknown> = {};
  const checkedAt: Partial<Record<FeatureArea, Date>> = {};
  const revisions: Partial<Record<FeatureArea, number>> = {};
  for (const row of rows) {
    if (!LOOKED_AREAS.includes(row.area as FeatureArea)) continue;
    facts[row.area] = row.result;
    checkedAt[row.area as FeatureArea] = row.checkedAt;
    revisions[row.area as FeatureArea] = row.revision;
  }
  return { facts: facts as ConnectionFacts, checkedAt, revisions };
}

/** The scheduled look: only when the last one is older than the interval (whichever process looked). */
export async function checkConnectionsWhenDue(deps: CheckDeps, config: Config, revision: number, now = new Date()) {
  const { checkedAt, revisions } = await lastLooks(deps.db);
  const due = LOOKED_AREAS.filter((area) => {
    const at = checkedAt[area];
    return !at || revisions[area] !== revision || now.getTime() - at.getTime() >= CONNECTION_LOOK_MS - 5_000;
  });
  if (due.length > 0) await checkConnections(deps, config, revision, due, now);
}
