/**
 * Discord's API as the site's bot meets it (v10, on loopback): guild member search and lookup, the
 * member role granted, a DM channel opened and a message sent in it. Like Discord it wants
 * `Authorization: Bot <token>`; answers errors as `{ code, message }` (10007 Unknown Member,
 * 10011 Unknown Role, 50013 Missing Permissions, 50007 Cannot send messages to this user); 429s
 * carry `retry_after` and Retry-After; a message sent again with the same `nonce` and
 * `enforce_nonce` is not created twice. Everything done is recorded.
 *
 * The announcement channel (`FAKE_ANNOUNCE_CHANNEL_ID`, a news channel unless told otherwise) takes
 * the bot's messages as JSON or multipart (`payload_json` and `files[n]`), checks the embed limits
 * (title 256, description 4,096, 6,000 in all) and content's 2,000, edits and deletes them (10008
 * Unknown Message once gone), lists them newest first, and crossposts a news channel's message. Who
 * a message would ping is worked out as Discord does, from its content and `allowed_mentions`.
 *
 * The server's events (guild scheduled events) are made, edited, deleted (10070 Unknown Guild
 * Scheduled Event once gone) and listed (`with_user_count`), with Discord's rules: an external event
 * (entity type 3) needs a location (at most 100 characters) and an end after its start; a name of
 * 1–100 characters, a description of at most 1,000; no start in the past. The bot is a member of the
 * server, with a role whose permissions say whether it may manage events.
 */
import { generateKeyPairSync, sign } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { listenOnLoopback } from "./fake-server.ts";

export const FAKE_DISCORD_TOKEN = "fake-bot-token-0123456789abcdef";
export const FAKE_GUILD_ID = "111111111111111111";
export const FAKE_MEMBER_ROLE_ID = "222222222222222222";
/** The staff's review channel, where the bot may post and edit its messages. */
export const FAKE_REVIEW_CHANNEL_ID = "333333333333333333";
/** The group's announcement channel, where the bot posts, edits and deletes announcements. */
export const FAKE_ANNOUNCE_CHANNEL_ID = "555555555555555555";
/** A channel the bot may read but not post in (its role is denied Send Messages there). */
export const FAKE_STAFF_CHANNEL_ID = "131313131313131313";
/** The bot's own user. */
export const FAKE_DISCORD_BOT_ID = "666666666666666666";
/** Roles of the server besides the member role (for announcements' mentions). */
export const FAKE_EVENTS_ROLE_ID = "777777777777777777";
/** The Discord application's OAuth2 client, for staff linking their own account. */
export const FAKE_CLIENT_ID = "444444444444444444";
export const FAKE_CLIENT_SECRET = "fake-client-secret-abcdef";

/** A message the bot posted in a server channel, as it stands after its edits. */
export interface FakeChannelMessage {
  id: string;
  channelId: string;
  content: string;
  embeds: unknown[];
  components: { type: number; components?: { type: number; custom_id?: string; label?: string }[] }[];
  edits: number;
}

/** A message the bot posted in the announcement channel, as it stands. */
export interface FakeAnnouncementMessage {
  id: string;
  content: string;
  embeds: { title?: string; description?: string; url?: string; image?: { url?: string } }[];
  /** Files attached (their names, types and sizes). */
  attachments: { filename: string; type: string; size: number }[];
  /** Who Discord would notify: `everyone`, `here`, `role:<id>`, `user:<id>`. */
  pinged: string[];
  allowedMentions: unknown;
  timestamp: string;
  edits: number;
  crossposted: boolean;
  deleted: boolean;
}

/** An event of the server, as it stands (the cover kept as its length). */
export interface FakeScheduledEvent {
  id: string;
  name: string;
  description: string | null;
  scheduled_start_time: string;
  scheduled_end_time: string | null;
  entity_type: number;
  privacy_level: number;
  location: string | null;
  creator_id: string;
  /** How many said they are interested. */
  user_count: number;
  /** The cover image's data URI length (0: none). */
  imageBytes: number;
  edits: number;
}

/** An entry of the server's audit log, as Discord keeps it. */
export interface FakeAuditEntry {
  id: string;
  user_id: string;
  target_id: string;
  action_type: number;
  reason?: string;
  changes?: { key: string; new_value?: unknown; old_value?: unknown }[];
}

/** A role above the bot's own: Discord refuses the bot giving it. */
export const FAKE_ADMINS_ROLE_ID = "101010101010101010";

/** A role of the server that members may be given (besides the member role). */
export const FAKE_REGULAR_ROLE_ID = "999999999999999999";

/** A member of the server. */
export interface FakeDiscordMember {
  id: string;
  username: string;
  globalName?: string | null;
  nick?: string | null;
  roles?: string[];
  /** Does not accept direct messages from the server's members. */
  dmsClosed?: boolean;
}

export interface FakeDiscordMessage {
  userId: string;
  content: string;
  at: number;
}

export interface FakeDiscordBot {
  url: string;
  members: FakeDiscordMember[];
  /** Roles granted, as `userId:roleId`, in order. */
  grants: string[];
  /** The server's bans: user id → the audit log's reason (decoded; null without one). */
  bans: Map<string, string | null>;
  messages: FakeDiscordMessage[];
  /** Messages posted in the review channel, edits applied. */
  channelPosts: FakeChannelMessage[];
  /** Messages posted in the announcement channel (deleted ones kept, marked). */
  announcements: FakeAnnouncementMessage[];
  /** The server's events (deleted ones removed). */
  scheduledEvents: FakeScheduledEvent[];
  /** Every event made, edited or deleted, in order. */
  scheduledEventWrites: { kind: "create" | "edit" | "delete"; id: string; at: number }[];
  /** Whether the bot's role lets it manage the server's events (true by default). */
  botMayManageEvents: boolean;
  /** The announcement channel's type: 5 (news, the default) or 0 (text). */
  announceChannelType: number;
  /** The bot's own role's place among the server's roles (3: above the member role, at 2). */
  botRolePosition: number;
  /** Posts in the announcement channel answer 403 Missing Permissions while on. */
  refuseAnnouncements(on: boolean): void;
  /** The announcement channel is gone (404 Unknown Channel) while on. */
  dropAnnounceChannel(on: boolean): void;
  /**
   * The server's audit log, oldest first (Discord lists it newest first): bans, unbans, kicks, timeouts
   * and role changes, the bot's own included (its user id as `user_id`).
   */
  auditLog: FakeAuditEntry[];
  /** A moderator's act in Discord itself (not through Dwell): the server changes, and the audit log says so. */
  moderate(act: { kind: "ban" | "unban" | "kick" | "timeout" | "role_add" | "role_remove"; actorId: string; targetId: string; roleId?: string; reason?: string }): void;
  /** The audit log answers 403 Missing Permissions (no View Audit Log) while on. */
  refuseAuditLog(on: boolean): void;
  /** Every request, as method and path (with query). */
  requests: { method: string; path: string; userAgent: string }[];
  /** The next `times` requests answer 429 asking to wait `seconds`. */
  rateLimitNext(times: number, seconds: number): void;
  /** Role grants answer 403 Missing Permissions while on. */
  refuseRoles(on: boolean): void;
  /** Every request answers 503 while on (Discord down). */
  setDown(on: boolean): void;
  /** Who signs in on Discord's authorize page (it consents at once and redirects back with a code). */
  signInAs(userId: string): void;
  close(): Promise<void>;
}

/** A snowflake of Discord's shape, from a number. */
export const fakeSnowflake = (n: number) => String(300000000000000000n + BigInt(n));

export async function startFakeDiscordBot(): Promise<FakeDiscordBot> {
  const members: FakeDiscordMember[] = [];
  const grants: string[] = [];
  const bans = new Map<string, string | null>();
  const messages: FakeDiscordMessage[] = [];
  const requests: FakeDiscordBot["requests"] = [];
  const channels = new Map<string, string>();
  const nonces = new Map<string, { id: string }>();
  let limited = { times: 0, seconds: 1 };
  let roleRefusal = false;
  let down = false;
  let signedIn = "";
  const channelPosts: FakeChannelMessage[] = [];
  const announcements: FakeAnnouncementMessage[] = [];
  const announceNonces = new Map<string, FakeAnnouncementMessage>();
  let announceRefusal = false;
  let announceGone = false;
  let messageId = 900000000000000000n;
  const state = { announceChannelType: 5, botMayManageEvents: true, botRolePosition: 3 };
  const scheduledEvents: FakeScheduledEvent[] = [];
  const scheduledEventWrites: FakeDiscordBot["scheduledEventWrites"] = [];
  const MANAGE_EVENTS = String(1n << 33n);
  /** The bot's own role: ban, see the audit log, post (send, embed, attach), give roles. */
  const BOT_BASE = (1n << 2n) | (1n << 7n) | (1n << 11n) | (1n << 14n) | (1n << 15n) | (1n << 28n);
  const auditLog: FakeAuditEntry[] = [];
  let auditRefusal = false;
  let auditSequence = 0n;
  /** An id of Discord's form for now: milliseconds since 2015 in the top bits, so ids sort by time. */
  const snowflakeNow = () => String(((BigInt(Date.now()) - 1420070400000n) << 22n) + (auditSequence++ % 4096n));
  const roleNames = new Map([
    [FAKE_MEMBER_ROLE_ID, "Dweller"],
    [FAKE_EVENTS_ROLE_ID, "Event Goers"],
    [FAKE_REGULAR_ROLE_ID, "Event Regular"],
  ]);
  function audit(entry: Omit<FakeAuditEntry, "id">) {
    auditLog.push({ id: snowflakeNow(), ...entry });
  }
  function setRole(userId: string, roleId: string, give: boolean, by: string, reason?: string) {
    const found = members.find((m) => m.id === userId);
    if (!found) return false;
    const has = found.roles?.includes(roleId) ?? false;
    if (give && !has) found.roles = [...(found.roles ?? []), roleId];
    if (!give && has) found.roles = (found.roles ?? []).filter((r) => r !== roleId);
    audit({ user_id: by, target_id: userId, action_type: 25, ...(reason ? { reason } : {}), changes: [{ key: give ? "$add" : "$remove", new_value: [{ id: roleId, name: roleNames.get(roleId) ?? "Role" }] }] });
    return true;
  }

  const scheduledObject = (event: FakeScheduledEvent, withCount: boolean) => ({
    id: event.id,
    guild_id: FAKE_GUILD_ID,
    channel_id: null,
    creator_id: event.creator_id,
    name: event.name,
    description: event.description,
    scheduled_start_time: event.scheduled_start_time,
    scheduled_end_time: event.scheduled_end_time,
    privacy_level: event.privacy_level,
    status: 1,
    entity_type: event.entity_type,
    entity_id: null,
    entity_metadata: { location: event.location },
    image: event.imageBytes > 0 ? "a1b2c3" : null,
    ...(withCount ? { user_count: event.user_count } : {}),
  });

  /** A scheduled event's body within Discord's rules, or what Discord says of it. */
  function scheduledProblem(json: Record<string, unknown>, creating: boolean): string | null {
    const name = json.name;
    if (creating || name !== undefined) if (typeof name !== "string" || name.length < 1 || name.length > 100) return "name: Must be between 1 and 100 in length.";
    if (typeof json.description === "string" && json.description.length > 1000) return "description: Must be 1000 or fewer in length.";
    const location = (json.entity_metadata as { location?: unknown } | undefined)?.location;
    if (creating && (json.entity_type !== 3 || typeof location !== "string" || location.length < 1)) return "entity_metadata.location: required for external events";
    if (typeof location === "string" && location.length > 100) return "entity_metadata.location: Must be 100 or fewer in length.";
    const start = typeof json.scheduled_start_time === "string" ? Date.parse(json.scheduled_start_time) : Number.NaN;
    const end = typeof json.scheduled_end_time === "string" ? Date.parse(json.scheduled_end_time) : Number.NaN;
    if (creating && (Number.isNaN(start) || Number.isNaN(end))) return "scheduled_end_time: required for external events";
    if (!Number.isNaN(start) && start < Date.now()) return "scheduled_start_time: Cannot schedule event in the past.";
    if (!Number.isNaN(start) && !Number.isNaN(end) && end <= start) return "scheduled_end_time: must be after the start";
    if (creating && json.privacy_level !== 2) return "privacy_level: must be 2";
    return null;
  }

  function scheduledRoute(req: IncomingMessage, res: ServerResponse, path: string, url: URL, json: Record<string, unknown>): boolean {
    const base = `/guilds/${FAKE_GUILD_ID}/scheduled-events`;
    if (!path.startsWith(base)) return false;
    if (!state.botMayManageEvents && req.method !== "GET") return fail(res, 403, 50013, "Missing Permissions"), true;
    if (req.method === "GET" && path === base) {
      return send(res, 200, scheduledEvents.map((event) => scheduledObject(event, url.searchParams.get("with_user_count") === "true"))), true;
    }
    if (req.method === "POST" && path === base) {
      const problem = scheduledProblem(json, true);
      if (problem) return fail(res, 400, 50035, `Invalid Form Body (${problem})`), true;
      const event: FakeScheduledEvent = {
        id: String(messageId++),
        name: json.name as string,
        description: (json.description as string | undefined) ?? null,
        scheduled_start_time: json.scheduled_start_time as string,
        scheduled_end_time: json.scheduled_end_time as string,
        entity_type: json.entity_type as number,
        privacy_level: json.privacy_level as number,
        location: (json.entity_metadata as { location: string }).location,
        creator_id: FAKE_DISCORD_BOT_ID,
        user_count: 0,
        imageBytes: typeof json.image === "string" && json.image.startsWith("data:image/") ? json.image.length : 0,
        edits: 0,
      };
      scheduledEvents.push(event);
      scheduledEventWrites.push({ kind: "create", id: event.id, at: Date.now() });
      return send(res, 200, scheduledObject(event, false)), true;
    }
    const one = new RegExp(`^${base}/(\\d+)$`).exec(path);
    const found = one ? scheduledEvents.find((event) => event.id === one[1]) : undefined;
    if (one && !found) return fail(res, 404, 10070, "Unknown Guild Scheduled Event"), true;
    if (found && req.method === "PATCH") {
      const problem = scheduledProblem(json, false);
      if (problem) return fail(res, 400, 50035, `Invalid Form Body (${problem})`), true;
      if (typeof json.name === "string") found.name = json.name;
      if (typeof json.description === "string") found.description = json.description;
      if (typeof json.scheduled_start_time === "string") found.scheduled_start_time = json.scheduled_start_time;
      if (typeof json.scheduled_end_time === "string") found.scheduled_end_time = json.scheduled_end_time;
      const location = (json.entity_metadata as { location?: string } | undefined)?.location;
      if (location) found.location = location;
      if (typeof json.image === "string") found.imageBytes = json.image.length;
      found.edits++;
      scheduledEventWrites.push({ kind: "edit", id: found.id, at: Date.now() });
      return send(res, 200, scheduledObject(found, false)), true;
    }
    if (found && req.method === "DELETE") {
      scheduledEvents.splice(scheduledEvents.indexOf(found), 1);
      scheduledEventWrites.push({ kind: "delete", id: found.id, at: Date.now() });
      return send(res, 204), true;
    }
    return false;
  }

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    if (body === undefined) {
      res.writeHead(status, headers);
      return void res.end();
    }
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, code: number, message: string) => send(res, status, { message, code });

  const memberObject = (member: FakeDiscordMember) => ({
    user: { id: member.id, username: member.username, global_name: member.globalName ?? null, avatar: null, discriminator: "0" },
    nick: member.nick ?? null,
    roles: member.roles ?? [],
    joined_at: "2025-01-01T00:00:00.000000+00:00",
    deaf: false,
    mute: false,
    flags: 0,
  });

  /** The redirect_uri each code was given for. */
  const redirects = new Map<string, string>();

  /** Who a message pings, as Discord decides: mentions in its content, allowed by `allowed_mentions`. */
  function pings(content: string, allowed: unknown): string[] {
    const rules = (allowed ?? null) as { parse?: string[]; roles?: string[]; users?: string[] } | null;
    const parse = rules ? (rules.parse ?? []) : ["everyone", "roles", "users"];
    const found: string[] = [];
    if (/@everyone/.test(content) && parse.includes("everyone")) found.push("everyone");
    if (/@here/.test(content) && parse.includes("everyone")) found.push("here");
    for (const [, id] of content.matchAll(/<@&(\d+)>/g)) if (parse.includes("roles") || rules?.roles?.includes(id!)) found.push(`role:${id}`);
    for (const [, id] of content.matchAll(/<@!?(\d+)>/g)) if (parse.includes("users") || rules?.users?.includes(id!)) found.push(`user:${id}`);
    return found;
  }

  const announcementObject = (message: FakeAnnouncementMessage) => ({
    id: message.id,
    channel_id: FAKE_ANNOUNCE_CHANNEL_ID,
    author: { id: FAKE_DISCORD_BOT_ID, username: "Dwell", bot: true },
    content: message.content,
    embeds: message.embeds,
    attachments: message.attachments.map((file, i) => ({ id: String(i), filename: file.filename, size: file.size, content_type: file.type })),
    timestamp: message.timestamp,
    flags: message.crossposted ? 1 : 0,
  });

  /** An announcement's body within Discord's limits, or the error Discord answers. */
  function announcementProblem(json: Record<string, unknown>): string | null {
    const content = typeof json.content === "string" ? json.content : "";
    const embeds = (Array.isArray(json.embeds) ? json.embeds : []) as FakeAnnouncementMessage["embeds"];
    if (content.length > 2000) return "content: Must be 2000 or fewer in length.";
    for (const embed of embeds) {
      if ((embed.title ?? "").length > 256) return "embeds.0.title: Must be 256 or fewer in length.";
      if ((embed.description ?? "").length > 4096) return "embeds.0.description: Must be 4096 or fewer in length.";
      if ((embed.title ?? "").length + (embed.description ?? "").length > 6000) return "embeds: Embed size exceeds maximum size of 6000";
    }
    if (!content && embeds.length === 0) return "Cannot send an empty message";
    return null;
  }

  function announcementRoute(req: IncomingMessage, res: ServerResponse, path: string, url: URL, json: Record<string, unknown>, files: FakeAnnouncementMessage["attachments"]): boolean {
    const base = `/channels/${FAKE_ANNOUNCE_CHANNEL_ID}`;
    if (!path.startsWith(base)) return false;
    if (announceGone) return fail(res, 404, 10003, "Unknown Channel"), true;
    if (req.method === "GET" && path === base) return send(res, 200, { id: FAKE_ANNOUNCE_CHANNEL_ID, type: state.announceChannelType, guild_id: FAKE_GUILD_ID, name: "announcements" }), true;
    if (announceRefusal) return fail(res, 403, 50013, "Missing Permissions"), true;
    if (req.method === "GET" && path === `${base}/messages`) {
      const limit = Number(url.searchParams.get("limit") ?? 50);
      if (limit < 1 || limit > 100) return fail(res, 400, 50035, "Invalid Form Body"), true;
      return send(res, 200, announcements.filter((m) => !m.deleted).toReversed().slice(0, limit).map(announcementObject)), true;
    }
    if (req.method === "POST" && path === `${base}/messages`) {
      const problem = announcementProblem(json);
      if (problem) return fail(res, 400, 50035, `Invalid Form Body (${problem})`), true;
      const nonce = typeof json.nonce === "string" ? json.nonce : null;
      const earlier = nonce && json.enforce_nonce === true ? announceNonces.get(nonce) : undefined;
      if (earlier) return send(res, 200, announcementObject(earlier)), true;
      const content = typeof json.content === "string" ? json.content : "";
      const message: FakeAnnouncementMessage = {
        id: String(messageId++),
        content,
        embeds: (json.embeds as FakeAnnouncementMessage["embeds"]) ?? [],
        attachments: files,
        pinged: pings(content, json.allowed_mentions),
        allowedMentions: json.allowed_mentions,
        timestamp: new Date().toISOString(),
        edits: 0,
        crossposted: false,
        deleted: false,
      };
      announcements.push(message);
      if (nonce) announceNonces.set(nonce, message);
      return send(res, 200, announcementObject(message)), true;
    }
    const one = new RegExp(`^${base}/messages/(\\d+)(/crosspost)?$`).exec(path);
    const message = one ? announcements.find((m) => m.id === one[1] && !m.deleted) : undefined;
    if (one && !message) return fail(res, 404, 10008, "Unknown Message"), true;
    if (one && message && one[2] && req.method === "POST") {
      if (state.announceChannelType !== 5) return fail(res, 400, 40033, "This message has already been crossposted or cannot be"), true;
      message.crossposted = true;
      return send(res, 200, announcementObject(message)), true;
    }
    if (one && message && req.method === "PATCH") {
      const problem = announcementProblem({ content: json.content ?? message.content, embeds: json.embeds ?? message.embeds });
      if (problem) return fail(res, 400, 50035, `Invalid Form Body (${problem})`), true;
      if (typeof json.content === "string") message.content = json.content;
      if (Array.isArray(json.embeds)) message.embeds = json.embeds as FakeAnnouncementMessage["embeds"];
      // The attachments listed are kept (new files join them); none listed removes them all.
      if (Array.isArray(json.attachments)) message.attachments = files.length > 0 ? files : (json.attachments as unknown[]).length === 0 ? [] : message.attachments;
      message.edits++;
      return send(res, 200, announcementObject(message)), true;
    }
    if (one && message && req.method === "DELETE") {
      message.deleted = true;
      return send(res, 204), true;
    }
    return false;
  }

  function handle(req: IncomingMessage, res: ServerResponse, body: string, files: FakeAnnouncementMessage["attachments"] = []) {
    const url = new URL(req.url ?? "/", "http://discord.test");
    const path = url.pathname.replace(/^\/api\/v10/, "");
    requests.push({ method: req.method ?? "GET", path: `${path}${url.search}`, userAgent: req.headers["user-agent"] ?? "" });
    if (down) return send(res, 503, { message: "upstream connect error", code: 0 });
    // Discord's OAuth2: the authorize page (consent given at once), the token exchange, who signed in.
    if (req.method === "GET" && url.pathname === "/oauth2/authorize") {
      const back = new URL(url.searchParams.get("redirect_uri") ?? "http://invalid");
      if (url.searchParams.get("client_id") !== FAKE_CLIENT_ID || url.searchParams.get("response_type") !== "code") return fail(res, 400, 0, "invalid_request");
      // Discord refuses a code exchanged for another redirect_uri than the one it was given for.
      redirects.set(`code-for-${signedIn}`, back.toString());
      back.searchParams.set("code", `code-for-${signedIn}`);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return send(res, 302, undefined, { Location: back.toString() });
    }
    if (req.method === "POST" && path === "/oauth2/token") {
      const basic = Buffer.from(`${FAKE_CLIENT_ID}:${FAKE_CLIENT_SECRET}`).toString("base64");
      const form = new URLSearchParams(body);
      const code = /^code-for-(\d{17,20})$/.exec(form.get("code") ?? "");
      if (req.headers.authorization !== `Basic ${basic}` || form.get("grant_type") !== "authorization_code" || !code) return send(res, 400, { error: "invalid_grant" });
      if (redirects.get(code[0]) !== form.get("redirect_uri")) return send(res, 400, { error: "invalid_grant", error_description: "Invalid \"redirect_uri\" in request." });
      return send(res, 200, { access_token: `token-${code[1]}`, token_type: "Bearer", expires_in: 604800, scope: "identify" });
    }
    if (req.method === "GET" && path === "/users/@me" && req.headers.authorization === `Bot ${FAKE_DISCORD_TOKEN}`) {
      return send(res, 200, { id: FAKE_DISCORD_BOT_ID, username: "Dwell", bot: true, avatar: null, discriminator: "0" });
    }
    if (req.method === "GET" && path === "/users/@me") {
      const bearer = /^Bearer token-(\d{17,20})$/.exec(req.headers.authorization ?? "");
      const user = bearer ? members.find((m) => m.id === bearer[1]) : null;
      if (!user) return fail(res, 401, 0, "401: Unauthorized");
      return send(res, 200, { id: user.id, username: user.username, global_name: user.globalName ?? null, avatar: null, discriminator: "0" });
    }
    if (req.headers.authorization !== `Bot ${FAKE_DISCORD_TOKEN}`) return fail(res, 401, 0, "401: Unauthorized");
    if (limited.times > 0) {
      limited.times--;
      return send(res, 429, { message: "You are being rate limited.", retry_after: limited.seconds, global: false }, { "Retry-After": String(Math.ceil(limited.seconds)) });
    }
    let json: Record<string, unknown>;
    try {
      json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    } catch {
      return fail(res, 400, 50109, "The request body contains invalid JSON.");
    }
    const g = `/guilds/${FAKE_GUILD_ID}`;
    if (announcementRoute(req, res, path, url, json, files)) return;
    if (scheduledRoute(req, res, path, url, json)) return;
    // The bot itself, a member of the server with its own role.
    if (req.method === "GET" && path === `${g}/members/${FAKE_DISCORD_BOT_ID}`) {
      return send(res, 200, { ...memberObject({ id: FAKE_DISCORD_BOT_ID, username: "Dwell", roles: ["888888888888888888"] }), user: { id: FAKE_DISCORD_BOT_ID, username: "Dwell", bot: true, global_name: null, avatar: null, discriminator: "0" } });
    }
    if (req.method === "GET" && path === `${g}/roles`) {
      return send(res, 200, [
        { id: FAKE_GUILD_ID, name: "@everyone", position: 0, managed: false, permissions: "1024" },
        { id: FAKE_MEMBER_ROLE_ID, name: "Dweller", position: 2, managed: false, permissions: "0" },
        { id: FAKE_EVENTS_ROLE_ID, name: "Event Goers", position: 1, managed: false, permissions: "0" },
        { id: FAKE_REGULAR_ROLE_ID, name: "Event Regular", position: 1, managed: false, permissions: "0" },
        // Above the bot's own role: the bot may not give it.
        { id: FAKE_ADMINS_ROLE_ID, name: "Admins", position: 5, managed: false, permissions: "8" },
        { id: "888888888888888888", name: "Dwell", position: state.botRolePosition, managed: true, permissions: String(BOT_BASE | (state.botMayManageEvents ? BigInt(MANAGE_EVENTS) : 0n)) },
      ]);
    }
    // The bot's servers, the server itself, and its channels (the Connections page's look).
    if (req.method === "GET" && path === "/users/@me/guilds") return send(res, 200, [{ id: FAKE_GUILD_ID, name: "The Dwellers", icon: null, owner: false, permissions: "0", features: [] }]);
    if (req.method === "GET" && path === g) return send(res, 200, { id: FAKE_GUILD_ID, name: "The Dwellers", owner_id: "121212121212121212", icon: null, features: [] });
    if (req.method === "GET" && path === `${g}/channels`) {
      return send(res, 200, [
        { id: FAKE_REVIEW_CHANNEL_ID, type: 0, guild_id: FAKE_GUILD_ID, name: "review", position: 1, permission_overwrites: [] },
        { id: FAKE_ANNOUNCE_CHANNEL_ID, type: state.announceChannelType, guild_id: FAKE_GUILD_ID, name: "announcements", position: 2, permission_overwrites: [] },
        // The staff's lounge: the bot may read it, not write in it.
        { id: FAKE_STAFF_CHANNEL_ID, type: 0, guild_id: FAKE_GUILD_ID, name: "staff-lounge", position: 3, permission_overwrites: [{ id: "888888888888888888", type: 0, allow: "0", deny: String(1n << 11n) }] },
      ]);
    }

    if (req.method === "GET" && path === `${g}/members`) {
      // The member list (Server Members intent): by user id, after one, at most 1,000.
      const limit = Number(url.searchParams.get("limit") ?? 1);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return fail(res, 400, 50035, "Invalid Form Body");
      const after = BigInt(url.searchParams.get("after") ?? "0");
      const listed = members.filter((m) => BigInt(m.id) > after).toSorted((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      return send(res, 200, listed.slice(0, limit).map(memberObject));
    }
    if (req.method === "GET" && path === `${g}/members/search`) {
      const query = (url.searchParams.get("query") ?? "").toLowerCase();
      const limit = Number(url.searchParams.get("limit") ?? 1);
      if (!query || limit < 1 || limit > 1000) return fail(res, 400, 50035, "Invalid Form Body");
      const found = members.filter((m) => [m.username, m.nick, m.globalName].some((name) => name?.toLowerCase().startsWith(query)));
      return send(res, 200, found.slice(0, limit).map(memberObject));
    }
    const member = new RegExp(`^${g}/members/(\\d+)$`).exec(path);
    if (req.method === "GET" && member) {
      const found = members.find((m) => m.id === member[1]);
      return found ? send(res, 200, memberObject(found)) : fail(res, 404, 10007, "Unknown Member");
    }
    const ban = new RegExp(`^${g}/bans/(\\d+)$`).exec(path);
    if (ban && req.method === "PUT") {
      const reason = req.headers["x-audit-log-reason"];
      bans.set(ban[1]!, typeof reason === "string" ? decodeURIComponent(reason) : null);
      audit({ user_id: FAKE_DISCORD_BOT_ID, target_id: ban[1]!, action_type: 22 });
      return send(res, 204);
    }
    if (ban && req.method === "DELETE") {
      if (!bans.has(ban[1]!)) return fail(res, 404, 10026, "Unknown Ban");
      bans.delete(ban[1]!);
      audit({ user_id: FAKE_DISCORD_BOT_ID, target_id: ban[1]!, action_type: 23 });
      return send(res, 204);
    }
    if (req.method === "GET" && path === `${g}/audit-logs`) {
      if (auditRefusal) return fail(res, 403, 50013, "Missing Permissions");
      const limit = Number(url.searchParams.get("limit") ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) return fail(res, 400, 50035, "Invalid Form Body");
      const before = url.searchParams.get("before");
      const entries = auditLog.filter((entry) => !before || BigInt(entry.id) < BigInt(before)).toReversed().slice(0, limit);
      const users = [...new Set(entries.flatMap((entry) => [entry.user_id, entry.target_id]))].map((id) => {
        const member = members.find((m) => m.id === id);
        return { id, username: member?.username ?? (id === FAKE_DISCORD_BOT_ID ? "Dwell" : `user${id.slice(-3)}`), global_name: member?.globalName ?? null, avatar: null, discriminator: "0" };
      });
      return send(res, 200, { audit_log_entries: entries, users, integrations: [], threads: [], webhooks: [], guild_scheduled_events: [], auto_moderation_rules: [], application_commands: [] });
    }
    const role = new RegExp(`^${g}/members/(\\d+)/roles/(\\d+)$`).exec(path);
    if ((req.method === "PUT" || req.method === "DELETE") && role) {
      const found = members.find((m) => m.id === role[1]);
      if (!found) return fail(res, 404, 10007, "Unknown Member");
      if (!roleNames.has(role[2]!)) return fail(res, 404, 10011, "Unknown Role");
      if (roleRefusal) return fail(res, 403, 50013, "Missing Permissions");
      const reason = req.headers["x-audit-log-reason"];
      setRole(found.id, role[2]!, req.method === "PUT", FAKE_DISCORD_BOT_ID, typeof reason === "string" ? decodeURIComponent(reason) : undefined);
      if (req.method === "PUT") grants.push(`${found.id}:${role[2]}`);
      return send(res, 204);
    }
    if (req.method === "POST" && path === "/users/@me/channels") {
      const recipient = String(json.recipient_id ?? "");
      if (!/^\d{17,20}$/.test(recipient)) return fail(res, 400, 50035, "Invalid Form Body");
      const id = `7${recipient.slice(1)}`;
      channels.set(id, recipient);
      return send(res, 200, { id, type: 1, recipients: [{ id: recipient }] });
    }
    const channelMessages = /^\/channels\/(\d+)\/messages$/.exec(path);
    if (req.method === "POST" && channelMessages?.[1] === FAKE_REVIEW_CHANNEL_ID) {
      const content = typeof json.content === "string" ? json.content : "";
      const embeds = Array.isArray(json.embeds) ? json.embeds : [];
      if (content.length > 2000 || (!content && embeds.length === 0)) return fail(res, 400, 50006, "Cannot send an empty message");
      const message: FakeChannelMessage = { id: String(messageId++), channelId: FAKE_REVIEW_CHANNEL_ID, content, embeds, components: (json.components as FakeChannelMessage["components"]) ?? [], edits: 0 };
      channelPosts.push(message);
      return send(res, 200, { id: message.id, channel_id: message.channelId, content });
    }
    const edit = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path);
    if (req.method === "PATCH" && edit) {
      const message = channelPosts.find((m) => m.channelId === edit[1] && m.id === edit[2]);
      if (!message) return fail(res, 404, 10008, "Unknown Message");
      if (typeof json.content === "string") message.content = json.content;
      if (Array.isArray(json.embeds)) message.embeds = json.embeds;
      if (Array.isArray(json.components)) message.components = json.components as FakeChannelMessage["components"];
      message.edits++;
      return send(res, 200, { id: message.id, channel_id: message.channelId, content: message.content });
    }
    if (req.method === "POST" && channelMessages) {
      const recipient = channels.get(channelMessages[1]!);
      if (!recipient) return fail(res, 404, 10003, "Unknown Channel");
      const content = typeof json.content === "string" ? json.content : "";
      if (!content || content.length > 2000) return fail(res, 400, 50035, "Invalid Form Body");
      if (members.find((m) => m.id === recipient)?.dmsClosed) return fail(res, 403, 50007, "Cannot send messages to this user");
      const nonce = typeof json.nonce === "string" ? json.nonce : null;
      if (nonce && json.enforce_nonce === true && nonces.has(`${recipient}:${nonce}`)) return send(res, 200, nonces.get(`${recipient}:${nonce}`));
      const message = { id: String(messageId++), channel_id: channelMessages[1], content };
      if (nonce) nonces.set(`${recipient}:${nonce}`, message);
      messages.push({ userId: recipient, content, at: Date.now() });
      return send(res, 200, message);
    }
    return fail(res, 404, 0, "404: Not Found");
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => void (async () => {
      const raw = Buffer.concat(chunks);
      if (!(req.headers["content-type"] ?? "").startsWith("multipart/form-data")) return handle(req, res, raw.toString());
      // Discord's multipart: the JSON body in payload_json, files in files[n].
      const form = await new Response(new Uint8Array(raw), { headers: { "Content-Type": req.headers["content-type"] ?? "" } }).formData().catch(() => null);
      const payload = form?.get("payload_json");
      if (typeof payload !== "string") return fail(res, 400, 50035, "Invalid Form Body");
      const files = [...form!.entries()].flatMap(([name, value]) => (/^files\[\d+\]$/.test(name) && typeof value !== "string" ? [{ filename: value.name, type: value.type, size: value.size }] : []));
      handle(req, res, payload, files);
    })());
  });
  await listenOnLoopback(server);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v10`,
    members,
    grants,
    bans,
    messages,
    channelPosts,
    announcements,
    scheduledEvents,
    scheduledEventWrites,
    get botMayManageEvents() {
      return state.botMayManageEvents;
    },
    set botMayManageEvents(allowed: boolean) {
      state.botMayManageEvents = allowed;
    },
    get botRolePosition() {
      return state.botRolePosition;
    },
    set botRolePosition(position: number) {
      state.botRolePosition = position;
    },
    get announceChannelType() {
      return state.announceChannelType;
    },
    set announceChannelType(type: number) {
      state.announceChannelType = type;
    },
    refuseAnnouncements(on) {
      announceRefusal = on;
    },
    dropAnnounceChannel(on) {
      announceGone = on;
    },
    auditLog,
    moderate(act) {
      if (act.kind === "role_add" || act.kind === "role_remove") {
        setRole(act.targetId, act.roleId ?? FAKE_REGULAR_ROLE_ID, act.kind === "role_add", act.actorId, act.reason);
        return;
      }
      if (act.kind === "ban") bans.set(act.targetId, act.reason ?? null);
      if (act.kind === "unban") bans.delete(act.targetId);
      const kicked = members.findIndex((m) => m.id === act.targetId);
      if (act.kind === "kick" && kicked >= 0) members.splice(kicked, 1);
      const changes = act.kind === "timeout" ? [{ key: "communication_disabled_until", new_value: new Date(Date.now() + 3_600_000).toISOString() }] : undefined;
      audit({ user_id: act.actorId, target_id: act.targetId, action_type: { ban: 22, unban: 23, kick: 20, timeout: 24 }[act.kind], ...(act.reason ? { reason: act.reason } : {}), ...(changes ? { changes } : {}) });
    },
    refuseAuditLog(on) {
      auditRefusal = on;
    },
    requests,
    setDown(on) {
      down = on;
    },
    signInAs(userId) {
      signedIn = userId;
    },
    rateLimitNext(times, seconds) {
      limited = { times, seconds };
    },
    refuseRoles(on) {
      roleRefusal = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The server's Discord bot settings pointing at a fake. */
export function fakeDiscordBotEnv(fake: { url: string }): Record<string, string> {
  return {
    DISCORD_API_URL: fake.url,
    DISCORD_BOT_TOKEN: FAKE_DISCORD_TOKEN,
    DISCORD_GUILD_ID: FAKE_GUILD_ID,
    DISCORD_MEMBER_ROLE_ID: FAKE_MEMBER_ROLE_ID,
  };
}

/**
 * Discord's side of the Interactions Endpoint: a key pair of its own, whose public half the site is
 * given (DISCORD_PUBLIC_KEY, hex), and interactions signed with it as Discord signs them: Ed25519
 * over the timestamp followed by the body, in X-Signature-Ed25519 and X-Signature-Timestamp.
 */
export function fakeInteractionSigner() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const publicKeyHex = Buffer.from(publicKey.export({ format: "jwk" }).x!, "base64url").toString("hex");
  return {
    publicKeyHex,
    /** Sends an interaction to the site; `timestamp` (seconds) and `signature` may be forced. */
    async send(siteUrl: string, interaction: unknown, options: { timestamp?: number; signature?: string | null; body?: string } = {}) {
      const body = options.body ?? JSON.stringify(interaction);
      const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
      const signature = options.signature === undefined ? sign(null, Buffer.from(timestamp + body), privateKey).toString("hex") : options.signature;
      const response = await fetch(`${siteUrl}/discord/interactions`, {
        method: "POST",
        body,
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "Discord-Interactions/1.0 (+https://discord.com)",
          "X-Signature-Timestamp": timestamp,
          ...(signature === null ? {} : { "X-Signature-Ed25519": signature }),
        },
      });
      const text = await response.text();
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // Not JSON: the test reads the status.
      }
      return { status: response.status, json: json as { type?: number; data?: { content?: string; flags?: number; components?: unknown[]; custom_id?: string } } | null };
    },
  };
}

let pressCount = 0;

/** A button press by a Discord user, as Discord sends it for a message in a server channel: each press an interaction of its own (its own id). */
export function fakePress(userId: string, customId: string, messageId = "1") {
  pressCount += 1;
  return {
    id: `4${String(Date.now()).padStart(13, "0")}${String(pressCount % 10_000).padStart(4, "0")}`,
    application_id: "5".repeat(18),
    type: 3,
    token: "interaction-token",
    version: 1,
    guild_id: FAKE_GUILD_ID,
    channel_id: FAKE_REVIEW_CHANNEL_ID,
    member: { user: { id: userId, username: `user${userId.slice(-3)}` }, roles: [] },
    message: { id: messageId, channel_id: FAKE_REVIEW_CHANNEL_ID },
    data: { custom_id: customId, component_type: 2 },
  };
}

/** A modal submitted: its text input inside a Label, as Discord returns it. */
export function fakeModalSubmit(userId: string, customId: string, reason: string) {
  return {
    ...fakePress(userId, customId),
    type: 5,
    data: { custom_id: customId, components: [{ type: 18, id: 1, component: { type: 4, id: 2, custom_id: "reason", value: reason } }] },
  };
}
