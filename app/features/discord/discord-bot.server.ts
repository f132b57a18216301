/**
 * The site's Discord bot, in the group's Discord server: it finds an applicant among the server's
 * members by their Discord handle, grants the member role on approval, and sends the decision by
 * direct message. Everything it does is an outbox job; lookups are cached and limited per minute.
 *
 * Discord's API as it is called is in discord-api.server.ts, its audit log in discord-audit-log.server.ts,
 * the bot's outbox jobs in discord-jobs.server.ts. A message sent with a `nonce` and `enforce_nonce` is
 * created once, however often it is sent within a few minutes.
 */
import { z } from "zod";
import { createLookupCache, type LookupAllowance } from "~/utils/lookup-cache.server";
import { sameName, truncate } from "~/utils/text";
import { m } from "~/paraglide/messages";
import { DiscordError, discordCaller, MemberSchema, normalizeHandle, SNOWFLAKE, type Member } from "./discord-api.server";
import { readAuditLog } from "./discord-audit-log.server";
import {
  BanJobSchema,
  MessageJobSchema,
  outcomeOf,
  PRIVATE_MESSAGE_KEPT,
  RoleJobSchema,
  type ActionOutcome,
  type BanJob,
  type JobTarget,
  type MessageJob,
  type RoleJob,
} from "./discord-jobs.server";

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

export function createDiscordBot(options: DiscordBotOptions) {
  const { guildId, memberRoleId, timeoutMs, cacheMs = 3 * 60_000, lookupCallsPerMinute = 30, now = Date.now } = options;
  const call = discordCaller(options);
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

  const api = {
    findCandidates,
    directMessage,
    /**
     * One page of the server's audit log, newest first (`GET /guilds/{id}/audit-logs`, 100 entries
     * `before` an entry id): bans, kicks, timeouts and role changes. Needs View Audit Log.
     */
    auditLog: (before: string | null) => readAuditLog(call, guildId, before),
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
