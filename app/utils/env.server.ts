import { z } from "zod";

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    error: "expected true or false",
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const httpUrl = z.url({ protocol: /^https?$/, error: "expected an http(s) URL" });
const optionalUrl = httpUrl.optional();

/** "24h,1h,30m,2d" → minutes before the start, largest first; null when a part is not a duration. */
export function parseReminders(text: string): number[] | null {
  const parts = text.split(",").map((part) => part.trim()).filter(Boolean);
  const minutes: number[] = [];
  for (const part of parts) {
    const match = /^(\d{1,5})\s*([mhd])$/i.exec(part);
    if (!match) return null;
    const value = Number(match[1]) * ({ m: 1, h: 60, d: 1440 } as const)[match[2]!.toLowerCase() as "m" | "h" | "d"];
    if (value < 1 || value > 30 * 1440) return null;
    minutes.push(value);
  }
  return [...new Set(minutes)].sort((a, b) => b - a);
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce
    .number({ error: "expected a port number" })
    .int()
    .min(0)
    .max(65535)
    .default(3000),
  /** Default: every interface with PUBLIC_URL set, this machine alone (127.0.0.1) without. */
  HOST: z.string().min(1).optional(),
  /** The least important log lines written: debug adds error stacks. */
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"], { error: "expected debug, info, warn or error" }).default("info"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: "expected a postgres:// URL" })
    .optional(),
  /**
   * The embedded database's page cache in MB (PostgreSQL's shared_buffers; PGlite's default 128). It is
   * taken whole as the server starts: a small machine, or a test's short-lived server, may give it less.
   */
  PGLITE_SHARED_BUFFERS_MB: z.coerce
    .number({ error: "expected a number of megabytes" })
    .int({ error: "expected a whole number of megabytes" })
    .min(1, { error: "expected at least 1 (megabyte)" })
    .max(16_384, { error: "expected at most 16384 (megabytes)" })
    .optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "expected the site's origin, e.g. https://dwell.example" })
    .refine((value) => /^https?:\/\/[^/?#]+\/?$/.test(value), {
      error: "expected the site's origin alone, without a path (e.g. https://dwell.example)",
    })
    .optional(),
  /**
   * The languages the site offers, the first its default (e.g. "en,ja"): each must have a catalogue
   * in messages/, which the server checks as it starts. With more than one, each visitor is answered
   * in their own (app/utils/language.ts).
   */
  SITE_LANGUAGES: z
    .string()
    .default("en")
    .transform((value) => [...new Set(value.split(",").map((language) => language.trim().toLowerCase()).filter(Boolean))])
    .refine((languages) => languages.length > 0, { error: "expected at least one language, e.g. en" })
    .refine((languages) => languages.every((language) => /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/.test(language)), {
      error: "expected language codes separated by commas, e.g. en,ja",
    }),
  DEMO_CONTENT: booleanFromEnv.default(true),
  DISCORD_INVITE_URL: optionalUrl,
  HERO_VIDEO_URL: optionalUrl,

  /**
   * Signed-out visitors of the home page, the events and an event share one rendering of each for
   * this long (0: render every request). Absorbs crowds; pages change at most this much later.
   */
  PAGE_CACHE_SECONDS: z.coerce.number({ error: "expected a number of seconds" }).min(0).max(60).default(1),
  /** Behind a reverse proxy: take the client's address from the last X-Forwarded-For entry. */
  TRUST_PROXY: booleanFromEnv.default(false),
  RATE_LIMIT_APPLICATIONS: z.coerce
    .number({ error: "expected a number of submissions" })
    .int()
    .min(1)
    .default(20),
  /**
   * Screening rules approve at most this many applications an hour (all processes together); past
   * it, applications wait for staff with the flag 'Automatic approvals paused: hourly limit'.
   */
  SCREENING_AUTO_APPROVALS_PER_HOUR: z.coerce.number({ error: "expected a number of approvals" }).int().min(0).max(10_000).default(30),
  /**
   * VRChat reads screening may make a minute, all processes together (one per person screened, and
   * their groups when a rule asks): its own allowance, never the staff's lookups nor the visitors'.
   */
  VRCHAT_SCREENING_CALLS_PER_MINUTE: z.coerce.number({ error: "expected a number of calls" }).int().min(1).max(120).default(30),
  /** The role bridge's changes a minute (VRChat and Discord together), all processes together. */
  ROLE_BRIDGE_CALLS_PER_MINUTE: z.coerce.number({ error: "expected a number of calls" }).int().min(1).max(120).default(30),
  /** Submissions per minute from everyone together: a flood from many addresses stops here. */
  RATE_LIMIT_APPLICATIONS_SITE: z.coerce.number({ error: "expected a number of submissions" }).int().min(1).default(60),
  /**
   * Past RATE_LIMIT_APPLICATIONS_SITE in a minute, a submission carries a solved proof of work (the
   * form's script solves it while the person fills it in): on average this many PBKDF2 derivations
   * of 1,000 rounds, about half a second in a browser. 0 turns the challenge off (the ceiling refuses).
   */
  CROWD_CHALLENGE_WORK: z.coerce.number({ error: "expected a number of attempts" }).int().min(0).max(1_000_000).default(1_500),
  /**
   * Duplicate answers ("already submitted") one client may meet per hour; past them its posts are
   * refused unread for the hour, so the answer cannot be used to test which names have applied.
   */
  RATE_LIMIT_DUPLICATES: z.coerce.number({ error: "expected a number of answers" }).int().min(1).default(3),
  /** A form posted sooner than this after it was served is refused (0: no such check). */
  FORM_MIN_FILL_SECONDS: z.coerce.number({ error: "expected a number of seconds" }).min(0).max(60).default(3),

  TELEGRAM_BOT_TOKEN: z.string().optional(),
  TELEGRAM_CHAT_ID: z.string().optional(),
  TELEGRAM_API_URL: httpUrl.default("https://api.telegram.org"),
  GOOGLE_SHEETS_ID: z.string().optional(),
  GOOGLE_SERVICE_ACCOUNT_FILE: z.string().optional(),
  /** The service account's key itself (its JSON), as the Connections page keeps it: instead of the file. */
  GOOGLE_SERVICE_ACCOUNT_JSON: z.string().max(64 * 1024, { error: "expected a service account key (a JSON file of a few KB)" }).optional(),
  GOOGLE_SHEETS_API_URL: httpUrl.default("https://sheets.googleapis.com"),
  GOOGLE_SHEETS_RANGE: z.string().default("Sheet1"),
  DISCORD_WEBHOOK_URL: optionalUrl,
  /** When approved attendees are reminded before an event: "24h,1h" (m, h, d); empty for none. */
  EVENT_REMINDERS: z
    .string()
    .default("24h,1h")
    .transform((value, context) => {
      const leads = parseReminders(value);
      if (leads === null) context.addIssue({ code: "custom", message: "expected durations such as 24h,1h (m, h or d; at most 30 days), or nothing" });
      return leads ?? [];
    }),
  /** The group's announcement channel: open events' join links (not applications: those go to DISCORD_WEBHOOK_URL). */
  DISCORD_ANNOUNCE_WEBHOOK_URL: optionalUrl,
  /** The site's Discord bot: finds applicants in the server, grants the member role, sends decisions by DM. */
  DISCORD_BOT_TOKEN: z.string().min(20, { error: "expected the bot's token (Discord developer portal → Bot)" }).optional(),
  DISCORD_GUILD_ID: z.string().regex(/^\d{17,20}$/, { error: "expected the server's id (a number)" }).optional(),
  DISCORD_MEMBER_ROLE_ID: z.string().regex(/^\d{17,20}$/, { error: "expected the role's id (a number)" }).optional(),
  DISCORD_API_URL: httpUrl.default("https://discord.com/api/v10"),
  /** Review in Discord: the application's public key (Developer Portal → General Information), hex. */
  DISCORD_PUBLIC_KEY: z.string().regex(/^[0-9a-fA-F]{64}$/, { error: "expected the application's public key: 64 hexadecimal characters" }).optional(),
  /** The staff's channel where new applications are posted with 'Approve' and 'Reject'. */
  DISCORD_REVIEW_CHANNEL_ID: z.string().regex(/^\d{17,20}$/, { error: "expected the channel's id (a number)" }).optional(),
  /** The channel the bot posts announcements in (so that it can edit and delete them). */
  DISCORD_ANNOUNCE_CHANNEL_ID: z.string().regex(/^\d{17,20}$/, { error: "expected the channel's id (a number)" }).optional(),
  /** The staff's channel for the tripwire's alerts (default: the review channel). */
  DISCORD_STAFF_CHANNEL_ID: z.string().regex(/^\d{17,20}$/, { error: "expected the channel's id (a number)" }).optional(),
  /** Staff link their own Discord account with Discord's sign-in (OAuth2): the application's id and secret. */
  DISCORD_CLIENT_ID: z.string().regex(/^\d{17,20}$/, { error: "expected the application's id (a number)" }).optional(),
  DISCORD_CLIENT_SECRET: z.string().min(8, { error: "expected the application's client secret (Developer Portal → OAuth2)" }).optional(),
  /** Where people authorise Discord sign-in (a fake's, in tests). */
  DISCORD_OAUTH_URL: httpUrl.default("https://discord.com/oauth2/authorize"),
  /** Signs sessions; at least 32 characters. Optional with the embedded database (one is generated). */
  AUTH_SECRET: z.string().min(32, { error: "at least 32 characters (openssl rand -base64 32)" }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "expected smtp:// or smtps://user:password@host:port" }).optional(),
  MAIL_FROM: z.string().min(3).default("Dwell <no-reply@localhost>"),
  RATE_LIMIT_SIGN_IN: z.coerce.number({ error: "expected a number of attempts" }).int().min(1).default(10),
  /** Admins must turn on two-factor sign-in: until they do, the Sanctum shows them only its Security page. */
  REQUIRE_ADMIN_2FA: booleanFromEnv.default(false),

  /** Delivery attempts before a notification is marked failed. */
  OUTBOX_MAX_ATTEMPTS: z.coerce.number({ error: "expected a number" }).int().min(1).default(10),
  /**
   * How long one request to Telegram, Google or Discord may take before it counts as failed (and is
   * retried later). A delivery is never waited on by a visitor; this bounds how long a job is held.
   */
  NOTIFICATION_TIMEOUT_SECONDS: z.coerce.number({ error: "expected a number of seconds" }).positive().max(300).default(10),

  /** The group shown live, and the bot account that reads it (see README, "VRChat"). */
  VRCHAT_GROUP_ID: z.string().regex(/^grp_[0-9a-f-]{36}$/, { error: "expected a group id like grp_…" }).optional(),
  VRCHAT_USERNAME: z.string().optional(),
  VRCHAT_PASSWORD: z.string().optional(),
  /** The bot account's authenticator secret (base32), so the server can answer the two-factor check. */
  VRCHAT_TOTP_SECRET: z.string().regex(/^[A-Z2-7 =]+$/i, { error: "expected a base32 secret" }).optional(),
  /** How VRChat can reach the site's operators (an email or URL): it goes into the User-Agent. */
  VRCHAT_CONTACT: z.string().min(3).optional(),
  VRCHAT_API_URL: httpUrl.default("https://api.vrchat.cloud/api/1"),
  /**
   * How long one request to VRChat may take before it counts as failed (each call is tried three
   * times). Pages never wait on VRChat; only a refresh in the background does.
   */
  VRCHAT_TIMEOUT_SECONDS: z.coerce.number({ error: "expected a number of seconds" }).positive().max(300).default(15),
  /** How long group data stays fresh: one upstream refresh per window, however many visitors. */
  VRCHAT_CACHE_SECONDS: z.coerce.number({ error: "expected a number of seconds" }).int().min(1).default(120),
  /** How often the group's VRChat calendar is imported into the events, on a schedule. */
  VRCHAT_SYNC_MINUTES: z.coerce.number({ error: "expected a number of minutes" }).int().min(1).default(15),
  /**
   * A decision on a group application acts in VRChat: approval accepts the linked account's join
   * request (or invites it), rejection rejects the request. Off unless asked for.
   */
  VRCHAT_MEMBERSHIP_ACTIONS: booleanFromEnv.default(false),
  /** `true`: events saved in the Sanctum can be published to the group's VRChat calendar. */
  VRCHAT_PUBLISH_EVENTS: booleanFromEnv.default(false),
  /** `true`: Dwell opens the group instance of an event with a world, at its time ('Open the instance'). */
  VRCHAT_OPEN_INSTANCES: booleanFromEnv.default(false),
  /**
   * Dwell reads the group's join requests from VRChat once a minute (Sanctum → Join Requests);
   * `false` for a bot whose role may not see them.
   */
  VRCHAT_READ_JOIN_REQUESTS: booleanFromEnv.default(true),
  /** Minutes an approved attendee must have been seen in the event's instance to be marked as having come. */
  ATTENDANCE_MIN_MINUTES: z.coerce.number({ error: "expected a number of minutes" }).int().min(1).max(24 * 60).default(15),
  /** Minutes after an event's end before each attendee is asked how it was ("How was it?"). */
  RATING_DELAY_MINUTES: z.coerce.number({ error: "expected a number of minutes" }).int().min(0).max(7 * 24 * 60).default(60),
  /** Members read per refresh (100 per page). */
  VRCHAT_MEMBERS_MAX: z.coerce.number({ error: "expected a number of members" }).int().min(0).max(1000).default(200),
});

/** Settings that only make sense together: naming the one that is missing. */
const PAIRS = [
  ["TELEGRAM_BOT_TOKEN", "TELEGRAM_CHAT_ID"],
  ["DISCORD_BOT_TOKEN", "DISCORD_GUILD_ID"],
  ["DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET"],
] as const;

/** The VRChat settings that must all be present once any of them is. */
const VRCHAT_REQUIRED = ["VRCHAT_GROUP_ID", "VRCHAT_USERNAME", "VRCHAT_PASSWORD", "VRCHAT_CONTACT"] as const;

/** This machine's own addresses: a server listening only there is reached by no one else. */
export const isLoopback = (host: string) => host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);

const CheckedEnvSchema = EnvSchema.superRefine((env, ctx) => {
  for (const [a, b] of PAIRS) {
    if (env[a] && !env[b]) ctx.addIssue({ code: "custom", path: [b], message: `required when ${a} is set` });
    if (env[b] && !env[a]) ctx.addIssue({ code: "custom", path: [a], message: `required when ${b} is set` });
  }
  // The sheet's key: a file on the server, or the key itself (saved on the Connections page).
  const sheetKey = env.GOOGLE_SERVICE_ACCOUNT_FILE || env.GOOGLE_SERVICE_ACCOUNT_JSON;
  if (env.GOOGLE_SHEETS_ID && !sheetKey) ctx.addIssue({ code: "custom", path: ["GOOGLE_SERVICE_ACCOUNT_FILE"], message: "required when GOOGLE_SHEETS_ID is set" });
  if (sheetKey && !env.GOOGLE_SHEETS_ID) ctx.addIssue({ code: "custom", path: ["GOOGLE_SHEETS_ID"], message: "required when GOOGLE_SERVICE_ACCOUNT_FILE is set" });
  if (env.DISCORD_STAFF_CHANNEL_ID && !env.DISCORD_BOT_TOKEN) {
    ctx.addIssue({ code: "custom", path: ["DISCORD_BOT_TOKEN"], message: "required when DISCORD_STAFF_CHANNEL_ID is set" });
  }
  // Behind a proxy the server cannot tell its public address from the request without trusting
  // headers anyone may send; links in emails and Secure cookies need it stated.
  if (env.TRUST_PROXY && !env.PUBLIC_URL) {
    ctx.addIssue({
      code: "custom",
      path: ["PUBLIC_URL"],
      message: "required when TRUST_PROXY is set: the address people use, e.g. https://dwell.example",
    });
  }
  // Links in e-mails, Discord and the calendar feeds are built from PUBLIC_URL, never from a request's
  // Host (which anyone may forge): a site others reach must say its own address.
  if (env.NODE_ENV === "production" && !env.PUBLIC_URL && env.HOST !== undefined && !isLoopback(env.HOST)) {
    ctx.addIssue({
      code: "custom",
      path: ["PUBLIC_URL"],
      message: `required in production when the server listens beyond this machine (HOST=${env.HOST}): the address people use, e.g. https://dwell.example`,
    });
  }
  // VRChat asks API users not to poll more than about once a minute; shorter windows are for fakes.
  const host = new URL(env.VRCHAT_API_URL).hostname;
  if (env.VRCHAT_CACHE_SECONDS < 60 && /(^|\.)vrchat\.(cloud|com)$/i.test(host)) {
    ctx.addIssue({
      code: "custom",
      path: ["VRCHAT_CACHE_SECONDS"],
      message: "at least 60 with VRChat's own API (VRChat asks not to poll more than about once a minute)",
    });
  }
  if (env.DISCORD_MEMBER_ROLE_ID && !env.DISCORD_BOT_TOKEN) {
    ctx.addIssue({ code: "custom", path: ["DISCORD_BOT_TOKEN"], message: "required when DISCORD_MEMBER_ROLE_ID is set" });
  }
  // The review posts buttons: they need the bot to post, and the key to trust the presses.
  if (env.DISCORD_REVIEW_CHANNEL_ID) {
    for (const name of ["DISCORD_BOT_TOKEN", "DISCORD_PUBLIC_KEY"] as const) {
      if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "required when DISCORD_REVIEW_CHANNEL_ID is set" });
    }
  }
  if (env.DISCORD_ANNOUNCE_CHANNEL_ID && !env.DISCORD_BOT_TOKEN) {
    ctx.addIssue({ code: "custom", path: ["DISCORD_BOT_TOKEN"], message: "required when DISCORD_ANNOUNCE_CHANNEL_ID is set" });
  }
  const given = VRCHAT_REQUIRED.find((name) => env[name]);
  if (given) {
    for (const name of VRCHAT_REQUIRED) {
      if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: `required when ${given} is set` });
    }
  }
});

export type Env = z.infer<typeof EnvSchema>;

/** Every environment variable Dwell reads (the README's configuration table lists each). */
export const ENV_NAMES = Object.keys(EnvSchema.shape) as (keyof Env)[];

export type Config = Omit<Env, "PUBLIC_URL" | "HOST"> & {
  HOST: string;
  /** The site's origin without a trailing slash. */
  PUBLIC_URL: string;
  /**
   * Whether PUBLIC_URL was set. Then every request is taken to be under it; otherwise (a
   * developer's machine) a request's own origin is the site's, whatever address it came by.
   */
  publicUrlIsSet: boolean;
};

export interface VRChatConfig {
  groupId: string;
  username: string;
  password: string;
  totpSecret: string | null;
  contact: string;
  apiUrl: string;
}

/** The VRChat connection, or null when the site runs without one (the demo group is shown then). */
export function vrchatConfig(config: Config): VRChatConfig | null {
  if (!config.VRCHAT_GROUP_ID || !config.VRCHAT_USERNAME || !config.VRCHAT_PASSWORD || !config.VRCHAT_CONTACT) return null;
  return {
    groupId: config.VRCHAT_GROUP_ID,
    username: config.VRCHAT_USERNAME,
    password: config.VRCHAT_PASSWORD,
    totpSecret: config.VRCHAT_TOTP_SECRET?.replaceAll(" ", "").toUpperCase() ?? null,
    contact: config.VRCHAT_CONTACT,
    apiUrl: config.VRCHAT_API_URL.replace(/\/+$/, ""),
  };
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Reads the configuration once, at boot. Empty strings count as unset, so a `.env` copied from
 * `.env.example` with blank values behaves like no value at all.
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  const parsed = CheckedEnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join(".")}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  // As browsers write it in Origin: lower case, no default port, no trailing slash.
  const publicUrl = new URL(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).origin;
  const host = env.HOST ?? (env.PUBLIC_URL ? "0.0.0.0" : "127.0.0.1");
  return { ...env, HOST: host, PUBLIC_URL: publicUrl, publicUrlIsSet: env.PUBLIC_URL !== undefined };
}

/** What the browser may see of the configuration: an explicit allowlist. */
export function publicConfig(config: Config) {
  return {
    discordInviteUrl: config.DISCORD_INVITE_URL ?? null,
    heroVideoUrl: config.HERO_VIDEO_URL ?? null,
  };
}

export type PublicConfig = ReturnType<typeof publicConfig>;
