/**
 * The site's Discord bot, in the group's Discord server: it finds an applicant among the server's
 * members by their Discord handle, grants the member role on approval, and sends the decision by
 * direct message. Everything it does is an outbox job; lookups are cached and limited per minute.
 *
 * Facts from Discord's API reference (v10): bot tokens go in `Authorization: Bot …`; the User-Agent
 * is `DiscordBot (url, version)`; a 429 says how long to wait in `retry_after` (seconds) and
 * Retry-After; error bodies are `{ code, message }`, with 50007 for a user who does not accept
 * direct messages and 50013 for a missing permission. A message sent with a `nonce` and
 * `enforce_nonce` is created once, however often it is sent within a few minutes.
 */
import { z } from "zod";
import type { Database } from "~/db/db.server";
import type { ModerationKind } from "~/db/enums";
import type { ReadAct } from "~/db/moderation-acts.server";
import { outbox } from "~/db/schema";
import { createLookupCache, type LookupAllowance } from "~/utils/lookup-cache.server";
import packageJson from "../../../package.json" with { type: "json" };
import { sameName, truncate } from "~/utils/text";
import { m } from "~/paraglide/messages";

export interface DiscordBotOptions {
  apiUrl: string;
  token: string;
  guildId: string;
  /** The role an approved group applicant gets; none: no role is granted. */
  memberRoleId: string | null;
  /** The site's address, for the User-Agent Discord asks for. */
  siteUrl: string;
  timeoutMs: number;
  cacheMs?: number;
  lookupCallsPerMinute?: number;
  /** Calls an applicant's own acts (a withdrawal's refill) may make per minute, all visitors together: never the staff's. */
  visitorLookupCallsPerMinute?: number;
  now?: () => number;
  /** A per-minute allowance shared by every process on the database (see utils/lookup-cache.server). */
  spendShared?: (key: string, callsPerMinute: number) => Promise<boolean>;
}

/** What the decision's rule found in the server for an applicant. */
export type DiscordMatch = { account: { userId: string; displayName: string } } | { unmatched: "none" | "several" | "claimed" };

export interface DiscordCandidate {
  id: string;
  username: string;
  /** The name shown in the server: their nickname there, else their display name, else the username. */
  displayName: string;
  avatarUrl: string | null;
  /** Already has the member role (null when no role is configured). */
  hasRole: boolean | null;
}

/** Permission bits (Discord's permissions reference). */
const ADMINISTRATOR = 1n << 3n;
const MANAGE_EVENTS = 1n << 33n;
const CREATE_EVENTS = 1n << 44n;

const ScheduledEventSchema = z.object({
  id: z.string(),
  creator_id: z.string().nullish(),
  name: z.string(),
  status: z.number().optional(),
  entity_metadata: z.object({ location: z.string().nullish() }).nullish(),
  scheduled_start_time: z.string().optional(),
  user_count: z.number().int().nonnegative().optional(),
});

/** Discord's ids count milliseconds from the first second of 2015. */
const DISCORD_EPOCH = 1420070400000n;

/** A Discord user id (a snowflake). */
const SNOWFLAKE = /^\d{17,20}$/;

const MemberSchema = z.object({
  user: z.object({ id: z.string().regex(SNOWFLAKE), username: z.string(), global_name: z.string().nullish(), avatar: z.string().nullish() }),
  nick: z.string().nullish(),
  roles: z.array(z.string()),
});
type Member = z.infer<typeof MemberSchema>;
const ErrorSchema = z.object({ code: z.number().optional(), message: z.string().optional(), retry_after: z.number().optional() });

export class DiscordError extends Error {
  override name = "DiscordError";
  readonly status: number | null;
  readonly code: number | null;
  readonly retryAfterMs: number | null;
  constructor(message: string, status: number | null, code: number | null = null, retryAfterMs: number | null = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A Discord user id from an id or a mention (`<@123>`); null otherwise. */
export function discordUserIdFrom(text: string): string | null {
  const trimmed = text.trim().replace(/^<@!?(\d+)>$/, "$1");
  return SNOWFLAKE.test(trimmed) ? trimmed : null;
}

/** "moth", "Moth#0", "@moth " all name the same account. */
export function normalizeHandle(handle: string): string {
  return handle.trim().replace(/^@/, "").replace(/#0$/, "").toLowerCase();
}

export function createDiscordBot(options: DiscordBotOptions) {
  const { apiUrl, token, guildId, memberRoleId, timeoutMs, cacheMs = 3 * 60_000, lookupCallsPerMinute = 30, now = Date.now } = options;
  const userAgent = `DiscordBot (${options.siteUrl}, ${packageJson.version})`;
  const lookups = createLookupCache({
    ttlMs: cacheMs,
    callsPerMinute: lookupCallsPerMinute,
    budgetMessage: m.lk_budget_discord,
    now,
    spend: options.spendShared && ((perMinute) => options.spendShared!("discord-lookups", perMinute)),
  });
  const visitorLookups = createLookupCache({
    ttlMs: cacheMs,
    callsPerMinute: options.visitorLookupCallsPerMinute ?? 6,
    budgetMessage: m.lk_budget_discord_applicants,
    now,
    spend: options.spendShared && ((perMinute) => options.spendShared!("discord-lookups:visitors", perMinute)),
  });
  const cached = <T>(key: string, load: () => Promise<T>, allowance: LookupAllowance = "staff") => (allowance === "visitors" ? visitorLookups : lookups).get(key, load);

  async function call(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${apiUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bot ${token}`,
          "User-Agent": userAgent,
          // A message with a file is multipart: fetch writes its Content-Type, with the boundary.
          ...(body === undefined || body instanceof FormData ? {} : { "Content-Type": "application/json" }),
          ...extraHeaders,
        },
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      throw new DiscordError(`Discord ${timedOut ? "timed out" : "could not be reached"}`, null);
    }
    if (response.status === 204) return null;
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: judged by the status alone below.
    }
    if (response.ok) return json;
    const error = ErrorSchema.safeParse(json);
    const details = error.success ? error.data : {};
    const header = Number(response.headers.get("retry-after"));
    const retryAfterMs = details.retry_after !== undefined ? details.retry_after * 1000 : Number.isFinite(header) && header > 0 ? header * 1000 : null;
    throw new DiscordError((details.message === undefined ? undefined : truncate(details.message, 200)) ?? `HTTP ${response.status}`, response.status, details.code ?? null, retryAfterMs);
  }

  function candidateOf(member: Member): DiscordCandidate {
    const { user } = member;
    return {
      id: user.id,
      username: user.username,
      displayName: member.nick ?? user.global_name ?? user.username,
      avatarUrl: user.avatar ? `https://cdn.discordapp.com/avatars/${user.id}/${user.avatar}.png?size=64` : null,
      hasRole: memberRoleId ? member.roles.includes(memberRoleId) : null,
    };
  }

  /** Members of the server whose name starts like the handle; those named exactly so first. */
  async function findCandidates(handle: string, allowance: LookupAllowance = "staff"): Promise<DiscordCandidate[]> {
    const query = normalizeHandle(handle);
    if (!query) return [];
    const found = await cached(
      `search:${query}`,
      async () => z.array(MemberSchema).parse(await call("GET", `/guilds/${guildId}/members/search?${new URLSearchParams({ query, limit: "5" })}`)),
      allowance,
    );
    const exact = (member: Member) => normalizeHandle(member.user.username) === query;
    return [...found.filter(exact), ...found.filter((member) => !exact(member))].map(candidateOf);
  }

  /**
   * The applicant's member of the server by the rule a decision links with: the one member whose
   * username is the handle given and who goes by the VRChat username given. A handle alone is only
   * the applicant's claim ('claimed'). Throws when Discord cannot be asked.
   */
  async function matchApplicant(applicant: { handle: string; username: string }, allowance: LookupAllowance = "staff"): Promise<DiscordMatch> {
    const handle = normalizeHandle(applicant.handle);
    if (!handle) return { unmatched: "none" };
    const exact = (await findCandidates(handle, allowance)).filter((candidate) => normalizeHandle(candidate.username) === handle);
    if (exact.length !== 1) return { unmatched: exact.length === 0 ? "none" : "several" };
    const [only] = exact as [DiscordCandidate];
    if (sameName(only.displayName, applicant.username) || sameName(only.username, applicant.username)) {
      return { account: { userId: only.id, displayName: only.displayName } };
    }
    return { unmatched: "claimed" };
  }

  /** One member of the server by id; null when they are not (or no longer) in it. */
  async function describeMember(userId: string): Promise<DiscordCandidate | null> {
    if (!SNOWFLAKE.test(userId)) return null;
    try {
      return candidateOf(await cached(`member:${userId}`, async () => MemberSchema.parse(await call("GET", `/guilds/${guildId}/members/${userId}`))));
    } catch (error) {
      if (error instanceof DiscordError && error.status === 404) return null;
      throw error;
    }
  }

  async function grantRole(job: RoleJob): Promise<string> {
    if (!memberRoleId) return "No member role is configured: nothing to grant";
    await call("PUT", `/guilds/${guildId}/members/${job.userId}/roles/${memberRoleId}`);
    lookups.forget(`member:${job.userId}`);
    return "Member role granted in Discord";
  }

  async function directMessage(userId: string, content: string, nonce: string): Promise<void> {
    const channel = z.object({ id: z.string() }).parse(await call("POST", "/users/@me/channels", { recipient_id: userId }));
    await call("POST", `/channels/${channel.id}/messages`, {
      content,
      // Nothing an admin or applicant wrote pings anyone.
      allowed_mentions: { parse: [] },
      // The same job sent again (after a crash) does not make a second message.
      nonce,
      enforce_nonce: true,
    });
  }

  async function sendMessage(job: MessageJob): Promise<string> {
    await directMessage(job.userId, job.content, job.nonce);
    return "Decision sent by direct message";
  }

  /** A ban or unban in the server, with its reason in the server's audit log; done already counts as done. */
  async function banAction(job: BanJob): Promise<string> {
    const path = `/guilds/${guildId}/bans/${job.userId}`;
    if (job.action === "ban") {
      // The audit log's reason goes in a header, URI-encoded (at most 512 characters).
      await call("PUT", path, {}, job.reason ? { "X-Audit-Log-Reason": encodeURIComponent(truncate(job.reason, 400)) } : {});
      lookups.forget(`member:${job.userId}`);
      return "Banned in Discord";
    }
    try {
      await call("DELETE", path);
      return "Unbanned in Discord";
    } catch (error) {
      if (error instanceof DiscordError && error.code === 10026) return "Not banned in Discord: nothing to do";
      throw error;
    }
  }

  /** A message in a channel of the server (the review channel): its id, to edit it later. */
  async function postMessage(channelId: string, body: Record<string, unknown>): Promise<{ id: string }> {
    return z.object({ id: z.string() }).parse(await call("POST", `/channels/${channelId}/messages`, body));
  }

  async function editMessage(channelId: string, messageId: string, body: Record<string, unknown>): Promise<void> {
    await call("PATCH", `/channels/${channelId}/messages/${messageId}`, body);
  }

  /**
   * A message with its picture attached (`files[0]`, named in the body's `attachments`), or without:
   * Discord's multipart form carries the JSON body as `payload_json`.
   */
  function withFile(body: Record<string, unknown>, file: { name: string; type: string; data: Buffer } | null): Record<string, unknown> | FormData {
    if (!file) return body;
    const form = new FormData();
    form.set("payload_json", JSON.stringify({ ...body, attachments: [{ id: 0, filename: file.name }] }));
    form.set("files[0]", new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
    return form;
  }

  const MessageSchema = z.object({
    id: z.string(),
    author: z.object({ id: z.string() }).optional(),
    timestamp: z.string().optional(),
    embeds: z.array(z.object({ title: z.string().nullish(), url: z.string().nullish() })).optional(),
  });

  const AuditLogSchema = z.object({
    audit_log_entries: z.array(z.unknown()),
    users: z.array(z.object({ id: z.string(), username: z.string(), global_name: z.string().nullish() }).passthrough()).default([]),
  });
  const AuditEntrySchema = z.object({
    id: z.string().regex(/^\d{1,20}$/),
    user_id: z.string().nullish(),
    target_id: z.string().nullish(),
    action_type: z.number().int(),
    reason: z.string().max(2_000).nullish(),
    changes: z.array(z.object({ key: z.string(), new_value: z.unknown().optional(), old_value: z.unknown().optional() })).nullish(),
  });
  const RolesChangedSchema = z.array(z.object({ id: z.string(), name: z.string().optional() }));

  /** An entry's acts: one per role given or taken, else one (or none, for what is not moderation). */
  function actsOf(entry: z.infer<typeof AuditEntrySchema>, names: Map<string, string>): ReadAct[] {
    const at = new Date(Number((BigInt(entry.id) >> 22n) + DISCORD_EPOCH));
    const target = entry.target_id && SNOWFLAKE.test(entry.target_id) ? entry.target_id : null;
    const base = {
      place: "discord" as const,
      actorAccountId: entry.user_id ?? null,
      actorName: (entry.user_id && names.get(entry.user_id)) || entry.user_id || "Someone in Discord",
      targetVrchatId: null,
      targetDiscordId: target,
      targetName: target ? (names.get(target) ?? null) : null,
      roleId: null,
      roleName: null,
      reason: entry.reason ?? null,
      at,
    };
    const simple: Record<number, ModerationKind> = { 20: "kick", 22: "ban", 23: "unban" };
    const kind = simple[entry.action_type];
    if (kind) return [{ ...base, sourceId: entry.id, kind }];
    if (entry.action_type === 24) {
      const timeout = entry.changes?.find((change) => change.key === "communication_disabled_until");
      if (!timeout || typeof timeout.new_value !== "string") return [];
      return [{ ...base, sourceId: entry.id, kind: "timeout", reason: [entry.reason, `until ${timeout.new_value}`].filter(Boolean).join(" · ") }];
    }
    if (entry.action_type === 25) {
      return (entry.changes ?? []).flatMap((change) => {
        if (change.key !== "$add" && change.key !== "$remove") return [];
        const roles = RolesChangedSchema.safeParse(change.new_value);
        if (!roles.success) return [];
        return roles.data.map((role) => ({ ...base, sourceId: `${entry.id}:${role.id}`, kind: change.key === "$add" ? ("role_add" as const) : ("role_remove" as const), roleId: role.id, roleName: role.name ?? null }));
      });
    }
    return [];
  }

  const api = {
    findCandidates,
    directMessage,
    /**
     * One page of the server's audit log, newest first (`GET /guilds/{id}/audit-logs`, 100 entries
     * `before` an entry id): bans, kicks, timeouts and role changes. Needs View Audit Log.
     */
    async auditLog(before: string | null) {
      const query = new URLSearchParams({ limit: "100", ...(before ? { before } : {}) });
      const answer = AuditLogSchema.parse(await call("GET", `/guilds/${guildId}/audit-logs?${query}`));
      const names = new Map(answer.users.map((user) => [user.id, user.global_name || user.username]));
      const acts: ReadAct[] = [];
      let unreadable = 0;
      let oldest: string | null = null;
      let newest: string | null = null;
      for (const raw of answer.audit_log_entries) {
        const entry = AuditEntrySchema.safeParse(raw);
        if (!entry.success) {
          unreadable += 1;
          continue;
        }
        const id = BigInt(entry.data.id);
        if (oldest === null || id < BigInt(oldest)) oldest = entry.data.id;
        if (newest === null || id > BigInt(newest)) newest = entry.data.id;
        acts.push(...actsOf(entry.data, names));
      }
      return { acts, oldest, newest, hasNext: answer.audit_log_entries.length >= 100, unreadable };
    },
    matchApplicant,
    describeMember,
    postMessage,
    editMessage,
    /** A role given to or taken from a member of the server, with the reason in its audit log; done already counts as done. */
    memberRoles: {
      async give(userId: string, roleId: string, reason: string) {
        await call("PUT", `/guilds/${guildId}/members/${userId}/roles/${roleId}`, undefined, { "X-Audit-Log-Reason": encodeURIComponent(truncate(reason, 400)) });
        lookups.forget(`member:${userId}`);
      },
      async take(userId: string, roleId: string, reason: string) {
        await call("DELETE", `/guilds/${guildId}/members/${userId}/roles/${roleId}`, undefined, { "X-Audit-Log-Reason": encodeURIComponent(truncate(reason, 400)) });
        lookups.forget(`member:${userId}`);
      },
    },
    /**
     * The server's roles as the role bridge shows them, each with whether the bot may give it: not
     * @everyone, not a role an integration manages, and below the bot's own highest role (three calls).
     */
    async linkableRoles(): Promise<{ id: string; name: string; givable: boolean; why: "managed" | "above-bot" | null }[]> {
      const me = await api.messages.botId();
      const [member, roles] = await Promise.all([
        call("GET", `/guilds/${guildId}/members/${me}`).then((answer) => z.object({ roles: z.array(z.string()) }).parse(answer)),
        call("GET", `/guilds/${guildId}/roles`).then((answer) => z.array(z.object({ id: z.string(), name: z.string(), managed: z.boolean().optional(), position: z.number().optional() })).parse(answer)),
      ]);
      const top = Math.max(0, ...roles.filter((role) => member.roles.includes(role.id)).map((role) => role.position ?? 0));
      return roles
        .filter((role) => role.id !== guildId)
        .toSorted((a, b) => (b.position ?? 0) - (a.position ?? 0))
        .map((role) => {
          const why = role.managed ? ("managed" as const) : (role.position ?? 0) >= top ? ("above-bot" as const) : null;
          return { id: role.id, name: role.name, givable: why === null, why };
        });
    },
    /** A page of the server's members (at most 1,000, after a user id): each one's roles. Needs the Server Members intent. */
    async memberPage(after: string | null): Promise<{ members: { id: string; roles: string[] }[]; last: string | null }> {
      const query = new URLSearchParams({ limit: "1000", ...(after ? { after } : {}) });
      const members = z.array(MemberSchema).parse(await call("GET", `/guilds/${guildId}/members?${query}`));
      return { members: members.map((member) => ({ id: member.user.id, roles: member.roles })), last: members.length === 1000 ? members.at(-1)!.user.id : null };
    },
    /** The server's roles (for the owner's list of roles an announcement may mention), cached like lookups. */
    async guildRoles(): Promise<{ id: string; name: string }[]> {
      const roles = await cached("roles", async () => z.array(z.object({ id: z.string(), name: z.string(), managed: z.boolean().optional(), position: z.number().optional() })).parse(await call("GET", `/guilds/${guildId}/roles`)));
      // @everyone (the server's own id) is never mentioned by an announcement.
      return roles.filter((role) => role.id !== guildId && !role.managed).toSorted((a, b) => (b.position ?? 0) - (a.position ?? 0)).map(({ id, name }) => ({ id, name }));
    },
    /**
     * The server's events (its 'Events' list), as Discord's guild scheduled event endpoints have them:
     * an external event (entity type 3) with a location, a start and an end.
     */
    scheduledEvents: {
      async create(body: Record<string, unknown>) {
        return ScheduledEventSchema.parse(await call("POST", `/guilds/${guildId}/scheduled-events`, body));
      },
      async edit(id: string, body: Record<string, unknown>) {
        await call("PATCH", `/guilds/${guildId}/scheduled-events/${id}`, body);
      },
      async remove(id: string) {
        await call("DELETE", `/guilds/${guildId}/scheduled-events/${id}`);
      },
      /** Every event of the server, with how many are interested in each (one call). */
      async list() {
        return z.array(ScheduledEventSchema).parse(await call("GET", `/guilds/${guildId}/scheduled-events?with_user_count=true`));
      },
      /**
       * Whether the bot may make and manage the server's events (Create Events or Manage Events, or
       * Administrator, from its roles): three calls, kept as long as the other lookups (a few minutes).
       */
      async allowed(): Promise<boolean> {
        return cached("may-manage-events", async () => {
          const me = z.object({ id: z.string() }).parse(await call("GET", "/users/@me"));
          const [member, roles] = await Promise.all([
            call("GET", `/guilds/${guildId}/members/${me.id}`).then((answer) => z.object({ roles: z.array(z.string()) }).parse(answer)),
            call("GET", `/guilds/${guildId}/roles`).then((answer) => z.array(z.object({ id: z.string(), permissions: z.string() })).parse(answer)),
          ]);
          const held = roles.filter((role) => role.id === guildId || member.roles.includes(role.id));
          const bits = held.reduce((all, role) => all | BigInt(role.permissions), 0n);
          return (bits & (ADMINISTRATOR | MANAGE_EVENTS | CREATE_EVENTS)) !== 0n;
        });
      },
    },
    /** Messages in a channel of the server, kept in step by Dwell (the announcements). */
    messages: {
      async post(channelId: string, body: Record<string, unknown>, file: { name: string; type: string; data: Buffer } | null) {
        return MessageSchema.parse(await call("POST", `/channels/${channelId}/messages`, withFile(body, file)));
      },
      async edit(channelId: string, messageId: string, body: Record<string, unknown>, file: { name: string; type: string; data: Buffer } | null) {
        await call("PATCH", `/channels/${channelId}/messages/${messageId}`, withFile(body, file));
      },
      async remove(channelId: string, messageId: string) {
        await call("DELETE", `/channels/${channelId}/messages/${messageId}`);
      },
      /** A news channel's message, sent on to the servers that follow the channel. */
      async crosspost(channelId: string, messageId: string) {
        await call("POST", `/channels/${channelId}/messages/${messageId}/crosspost`);
      },
      /** The channel's type: 5 is a news (announcement) channel. */
      async channelType(channelId: string): Promise<number> {
        return z.object({ type: z.number() }).parse(await call("GET", `/channels/${channelId}`)).type;
      },
      /** The channel's latest messages, newest first (at most 100). */
      async recent(channelId: string, limit: number) {
        return z.array(MessageSchema).parse(await call("GET", `/channels/${channelId}/messages?limit=${Math.min(100, limit)}`));
      },
      /** The bot's own user id. */
      async botId(): Promise<string> {
        return cached("bot-id", async () => z.object({ id: z.string() }).parse(await call("GET", "/users/@me")).id);
      },
    },
  };

  function channel<J>(target: JobTarget, schema: z.ZodType<J>, run: (job: J) => Promise<string>) {
    return {
      target,
      // Opening the DM channel and sending the message.
      maxDeliveryMs: 2 * timeoutMs,
      async deliver(payload: unknown): Promise<ActionOutcome> {
        const parsed = schema.safeParse(payload);
        if (!parsed.success) return { kind: "failed", error: "The job could not be read" };
        try {
          return { kind: "delivered", result: await run(parsed.data) };
        } catch (error) {
          return outcomeOf(error, target);
        }
      },
    };
  }

  return {
    ...api,
    /** An outbox channel of the bot's own jobs (the review's, beside the decisions' role and message). */
    jobChannel: channel,
    roleConfigured: memberRoleId !== null,
    channels: [
      channel("discord_role", RoleJobSchema, grantRole),
      {
        ...channel("discord_dm", MessageJobSchema, sendMessage),
        redact: (payload: unknown) => {
          const job = MessageJobSchema.safeParse(payload);
          return job.success && job.data.private ? { ...job.data, content: PRIVATE_MESSAGE_KEPT } : null;
        },
      },
      channel("discord_ban", BanJobSchema, banAction),
    ] as const,
  };
}

export type DiscordBot = ReturnType<typeof createDiscordBot>;

type JobTarget = "discord_role" | "discord_dm" | "discord_review" | "discord_ban" | "staff_alert" | "member_role";

type ActionOutcome =
  | { kind: "delivered"; result: string }
  | { kind: "retry"; error: string; retryAfterMs?: number; slowDown?: boolean }
  | { kind: "failed"; error: string };

/** Discord's refusals are shown as they are; waits and outages are retried by the outbox. */
export function outcomeOf(error: unknown, target: JobTarget): ActionOutcome {
  if (!(error instanceof DiscordError)) {
    return { kind: "failed", error: error instanceof z.ZodError ? "Discord answered in an unexpected shape" : String(error) };
  }
  if (error.status === 429) return { kind: "retry", error: "Discord asked us to slow down", retryAfterMs: error.retryAfterMs ?? undefined, slowDown: true };
  if (error.status === null || error.status >= 500) return { kind: "retry", error: error.message };
  if (error.code === 50007) return { kind: "failed", error: "Discord refused the direct message: they do not accept messages from this server's members" };
  if (error.code === 50013 || error.status === 403) {
    const what =
      target === "discord_role"
        ? "grant the role (its role must be above the member role, with Manage Roles)"
        : target === "member_role"
          ? "give or take the role (Manage Roles, and its own role above the role)"
        : target === "discord_ban"
          ? "ban members (Ban Members, and its role above theirs)"
        : target === "discord_review"
          ? "post in the review channel (View Channel and Send Messages there)"
          : "send the message";
    return { kind: "failed", error: `The bot has no permission to ${what}` };
  }
  if (error.status === 401) return { kind: "failed", error: "Discord refused the bot's token (DISCORD_BOT_TOKEN)" };
  if (error.status === 404) {
    const what = target === "discord_role" || target === "member_role" ? "this member or the role" : target === "discord_review" ? "the review channel or its message" : "this user";
    return { kind: "failed", error: `Discord does not know ${what} (${error.message})` };
  }
  return { kind: "failed", error: `Discord answered ${error.status}: ${error.message}` };
}

const actor = z.object({ id: z.string(), name: z.string() });
const RoleJobSchema = z.object({ applicationKind: z.enum(["group", "event"]), applicationId: z.uuid(), userId: z.string().regex(SNOWFLAKE), actor });
/** A ban or unban in the server (`banId`: the row in `bans`). */
export const BanJobSchema = z.object({ action: z.enum(["ban", "unban"]), banId: z.uuid(), userId: z.string().regex(SNOWFLAKE), reason: z.string().max(2000).nullable(), actor });
export type BanJob = z.infer<typeof BanJobSchema>;
const MessageJobSchema = RoleJobSchema.extend({
  content: z.string().min(1).max(2000),
  nonce: z.string().max(25),
  /** It carries a private status link: its text is not kept once sent (only the link's hash is). */
  private: z.boolean().optional(),
});

/** What stays of a private message once it is sent or given up: who and why, not the link. */
export const PRIVATE_MESSAGE_KEPT = "(A message with a private status link: its text is not kept.)";
export type RoleJob = z.infer<typeof RoleJobSchema>;
export type MessageJob = z.infer<typeof MessageJobSchema>;

/** The approval's own DM of an application: Discord makes a message once per nonce (a reminder or a join link has its own). */
export const approvalNonce = (applicationId: string) => applicationId.replaceAll("-", "").slice(0, 25);

/** Queues a decision's Discord actions in its transaction: the role (group approvals) and the message. */
export async function queueDiscordActions(
  tx: Pick<Database, "insert">,
  job: RoleJob,
  actions: {
    grantRole: boolean;
    message: string | null;
    /** Another message to the same person (a reminder) needs its own. */
    nonce?: string;
    /** The message carries a private link: its text is dropped from the job once it is sent. */
    private?: boolean;
  },
  at: Date,
) {
  const rows = [
    ...(actions.grantRole ? [{ target: "discord_role", payload: job }] : []),
    ...(actions.message
      ? [{ target: "discord_dm", payload: { ...job, content: truncate(actions.message, 2000), nonce: (actions.nonce ?? approvalNonce(job.applicationId)).slice(0, 25), ...(actions.private ? { private: true } : {}) } }]
      : []),
  ];
  if (rows.length > 0) await tx.insert(outbox).values(rows.map((row) => ({ ...row, sourceId: job.applicationId, nextAttemptAt: at })));
}
