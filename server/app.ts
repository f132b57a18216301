/**
 * The one server process: Hono owns middleware, /api/*, and (later) auth and workers, and hands
 * every other request to React Router. This file is the SSR bundle's entry, so the routes, the
 * database and the server share one module graph and one database connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { appContext, type AppContext } from "~/context";
import type { Database, DatabaseHandle } from "~/db/db.server";
import { buildNotificationChannels } from "~/features/notifications/channels.server";
import { GROUP_DATA_FAILED, GROUP_DATA_PATH } from "~/features/vrchat/group-data";
import { oneSnapshotPerRequest } from "~/features/vrchat/group-data.server";
import { createDiscordBot, type DiscordBot } from "~/features/discord/discord-bot.server";
import { interactionKey as discordInteractionKey } from "~/features/discord/discord-review.server";
import { createDiscordOAuth } from "~/features/discord/discord-oauth.server";
import { decideServices } from "~/flows/decide.server";
import { answerInteraction } from "~/flows/discord-interaction.server";
import { formGuardHoles } from "~/flows/submit-application.server";
import { createVRChatServices, sharedAllowance, type VRChatServices } from "~/features/vrchat/vrchat.server";
import { crossSiteMessage } from "~/utils/admin-guard.server";
import { resolveAuthSecret } from "~/utils/auth-secret.server";
import { CLIENT_IP_HEADER, createAuth, type Auth } from "~/utils/auth.server";
import { createMailer } from "~/utils/email.server";
import { catalogueProblems } from "~/utils/catalogues.server";
import { ConfigError, loadConfig, type Config } from "~/utils/env.server";
import { CATALOGUE_LANGUAGES } from "~/utils/language";
import { inLanguage, languageOfRequest, setSiteLanguages } from "~/utils/language.server";
import { languagesFileIn } from "./build";
import { languageBuild, type LanguageBuild } from "./language-assets";
import { log, setLogLevel, withRequestId } from "~/utils/log.server";
import { adminSocketHandler, runAdminCommand, type AdminDeps } from "./admin-commands";
import { createPrivateFilesOnly, makeOwnerOnly } from "./private-data-dir";
import { recordFirstStart } from "./demo-content";
import { createHealthCheck, publicHealth, type HealthCheck } from "./health";
import { compression } from "./compression";
import { APPLICATION_FORM_PATH, createPageCache, privateResponse } from "./page-cache";
import { isCrossSite, reportCrossSite, siteOrigin, underPublicOrigin } from "./public-origin";
import { openConfiguredDatabase } from "./database";
import { startSchedule } from "./schedule";
import { securityHeaders } from "./security-headers";
import { isSanctumPath } from "~/utils/sanctum-path";
import { startWorkers } from "./workers";

/** What a visitor reads when a sync met problems; the admins see each one. */
export const SYNC_FAILED_PUBLIC = "Some events could not be synced from VRChat; the site's admins can see why.";

/** Requests with a body larger than this are refused with 413 before anything reads them. */
export const MAX_BODY_BYTES = 256 * 1024;
/** The Sanctum's announcement form, with its picture. */
export const MAX_PICTURE_FORM_BYTES = 6 * 1024 * 1024;

/** How long a stopping server lets requests in flight finish (pages stream for at most 6 s). */
const SHUTDOWN_GRACE_MS = 10_000;

export interface AppDeps {
  db: Database;
  config: Config;
  auth: Auth;
  mailTransport: AppContext["mailTransport"];
  mail: AppContext["mail"];
  notifications: AppContext["notifications"];
  vrchat: VRChatServices;
  discord: DiscordBot | null;
  discordOAuth: AppContext["discordOAuth"];
  /** What `/api/health` answers (see server/health.ts). */
  health: HealthCheck;
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** The language whose browser code asks for more of the route list (server/language-assets.ts). */
  manifestLanguage?: LanguageBuild["languageOfManifestRequest"];
  /** Serve the client build's files (production); in development Vite serves them. */
  staticRoot?: string;
}

/** The security headers middleware leaves the page's CSP nonce in `secureHeadersNonce`. */
type Env = { Bindings: HttpBindings; Variables: { secureHeadersNonce?: string } };

/**
 * The client's address: the socket's peer, or behind a trusted reverse proxy the last entry of
 * X-Forwarded-For (the one the proxy itself added; earlier entries are whatever the client sent).
 */
function clientAddress(c: Context<Env>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return getConnInfo(c).remote.address ?? "unknown";
}

/** The Sanctum's pages and their data requests (`/admin.data`, `/admin/events.data`). */

/** A status link's token is the applicant's key to their application: it stays out of the log. */
export const loggedPath = (path: string) =>
  path.replace(/^\/applications\/status\/[^/]+/, "/applications/status/[token]").replace(/^\/admin\/join\/[^/]+/, "/admin/join/[token]");

export const DISCORD_INTERACTIONS_PATH = "/discord/interactions";

/** A request id sent by a trusted proxy is kept (so its logs and ours line up); otherwise ours. */
const REQUEST_ID = /^[\w=-]{1,64}$/;

export function createApp({ db, config, auth, mailTransport, mail, notifications, vrchat, discord, discordOAuth, health, build, manifestLanguage, staticRoot }: AppDeps) {
  const app = new Hono<Env>();
  const handleRequest = createRequestHandler(build, config.NODE_ENV);
  const cachedPage = createPageCache({ ttlMs: config.PAGE_CACHE_SECONDS * 1000 });
  const languages = config.SITE_LANGUAGES;
  setSiteLanguages(languages);

  // One log line per request: no query string (reset links carry tokens there), no headers.
  app.use(async (c, next) => {
    const started = performance.now();
    const given = config.TRUST_PROXY ? c.req.header("x-request-id") : undefined;
    const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    await withRequestId(requestId, next);
    c.header("X-Request-Id", requestId);
    withRequestId(requestId, () =>
      log.info("request", {
        method: c.req.method,
        path: loggedPath(c.req.path),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      }),
    );
  });
  app.use(securityHeaders(config));
  app.use(compression());
  app.onError((error, c) => {
    log.error("request failed", { error, method: c.req.method, path: loggedPath(c.req.path) });
    return c.text("Something went wrong on our side. Please try again.", 500);
  });

  const bodyLimits = [
    // An announcement's form carries its picture (5 MB at most, checked again by its bytes).
    {
      applies: (path: string) => path.startsWith("/admin/announcements"),
      limit: bodyLimit({ maxSize: MAX_PICTURE_FORM_BYTES, onError: (c) => c.text("The request is too large (6 MB at most).", 413, { Connection: "close" }) }),
    },
    {
      applies: () => true,
      // The unread rest of the body is still on the connection: close it rather than reuse it.
      limit: bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.text("The request is too large (256 KB at most).", 413, { Connection: "close" }) }),
    },
  ];
  app.use((c, next) => bodyLimits.find((entry) => entry.applies(c.req.path))!.limit(c, next));

  app.get("/api/health", async (c) => {
    const { status, body } = publicHealth(await health());
    c.header("Cache-Control", "no-store");
    return c.json(body, status);
  });
  // The group's live data, from the server's cache (spec section 3, flattened).
  app.get(GROUP_DATA_PATH, async (c) => {
    const state = await vrchat.groupData.get();
    c.header("Cache-Control", "no-cache");
    if (state.status === "ready") return c.json(state.data);
    if (state.status === "off") return c.json({ message: "Group statistics are not enabled on this site." }, 404);
    // The reason stays in the log and the Sanctum (see forVisitors).
    const message = state.status === "error" ? GROUP_DATA_FAILED : "VRChat data is not available yet.";
    return c.json({ message }, 503);
  });

  // Imports the VRChat calendar into the events; throttled, so visitors cannot make it run often.
  app.post("/api/sync-events", async (c) => {
    const outcome = await vrchat.eventSync.run("visit");
    // The counts only: what went wrong is for the Sanctum's status panel and the log.
    if (outcome.ran) {
      const { added, updated, skipped, errors } = outcome.result;
      return c.json({ added, updated, skipped, errors: errors.length > 0 ? [SYNC_FAILED_PUBLIC] : [] });
    }
    const body = { added: 0, updated: 0, skipped: 0, errors: [outcome.message] };
    if (outcome.reason === "not-configured") return c.json(body, 404);
    c.header("Retry-After", String(Math.max(1, Math.ceil(outcome.retryAfterMs / 1000))));
    return c.json(body, 429);
  });

  app.all("/api/*", (c) => c.json({ error: "Not found" }, 404));

  // Discord's Interactions Endpoint URL: the review channel's buttons (see flows/discord-interaction).
  const interactionKey = config.DISCORD_PUBLIC_KEY ? discordInteractionKey(config.DISCORD_PUBLIC_KEY) : null;
  app.post(DISCORD_INTERACTIONS_PATH, async (c) => {
    if (!interactionKey) return c.json({ error: "Review in Discord is not set up on this site." }, 404);
    const body = await c.req.text();
    const services = { ...decideServices({ db, config, vrchat, discord, notifications }), requireAll2fa: config.REQUIRE_ADMIN_2FA };
    const answer = await answerInteraction(
      services,
      interactionKey,
      { body, signature: c.req.header("x-signature-ed25519") ?? null, timestamp: c.req.header("x-signature-timestamp") ?? null },
      new Date(),
    );
    c.header("Cache-Control", "no-store");
    return c.json(answer.body, answer.status);
  });
  app.all(DISCORD_INTERACTIONS_PATH, (c) => c.json({ error: "Discord sends interactions with POST." }, 405, { Allow: "POST" }));

  if (staticRoot) {
    app.use(
      "/assets/*",
      serveStatic({
        root: staticRoot,
        onFound: (_path, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
      }),
    );
    app.use("*", serveStatic({ root: staticRoot }));
  }

  app.all("*", async (c) => {
    // Pages and forms are answered as the site at its public address (see server/public-origin.ts).
    const origin = siteOrigin(config, new URL(c.req.url));
    if (isCrossSite(c.req.raw, origin)) {
      reportCrossSite(c.req.raw, origin, config.TRUST_PROXY);
      return c.text(inLanguage(languageOfRequest(c.req.raw, languages), crossSiteMessage), 403);
    }
    const address = clientAddress(c, config.TRUST_PROXY);
    const cspNonce = c.get("secureHeadersNonce");
    const requestVRChat = { ...vrchat, groupData: oneSnapshotPerRequest(vrchat.groupData) };
    const request = underPublicOrigin(c.req.raw, origin);
    // Each public page in the visitor's language; the Sanctum in the staff member's (set by its layout's middleware once the session is read).
    const language = manifestLanguage?.(new URL(request.url)) ?? languageOfRequest(request, languages);
    // better-auth reads the client's address from this header (it cannot see the socket).
    request.headers.set(CLIENT_IP_HEADER, address);
    const render = (sharedRender: boolean) => {
      const context = new RouterContextProvider();
      context.set(appContext, { db, config, auth, mailTransport, mail, clientAddress: address, notifications, vrchat: requestVRChat, discord, discordOAuth, cspNonce, language, sharedRender });
      return handleRequest(request, context);
    };
    // An application form's copy shared by its visitors leaves each one's guards to be filled in.
    const holes = APPLICATION_FORM_PATH.test(c.req.path) ? formGuardHoles((await auth.$context).secret, address, config.CROWD_CHALLENGE_WORK) : undefined;
    const response = await inLanguage(language, () => cachedPage(request, cspNonce, render, language, holes));
    if (isSanctumPath(c.req.path)) return privateResponse(response);
    if (languages.length > 1) {
      // The same address answers in several languages: shared caches must keep them apart.
      response.headers.set("Content-Language", language);
      response.headers.append("Vary", "Accept-Language, Cookie");
    }
    return response;
  });

  return app;
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Vite's dev middleware, in front of the app (development only). */
  devMiddleware?: Middleware;
  build?: AppDeps["build"];
  staticRoot?: string;
  /** The message catalogues (default: messages/ in the working directory). */
  messagesDir?: string;
}

export interface RunningServer {
  url: string;
  config: Config;
  database: DatabaseHandle;
  close(): Promise<void>;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config = loadConfig(options.env);
  setLogLevel(config.LOG_LEVEL);
  // A language without its compiled catalogue, or a broken message, would reach visitors as raw or
  // broken texts: the site does not start with either.
  const uncompiled = config.SITE_LANGUAGES.filter((language) => !CATALOGUE_LANGUAGES.includes(language));
  if (uncompiled.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  SITE_LANGUAGES: no catalogue for ${uncompiled.join(", ")} (messages/ has ${CATALOGUE_LANGUAGES.join(", ")})`);
  }
  const brokenMessages = catalogueProblems(options.messagesDir ?? join(process.cwd(), "messages"), config.SITE_LANGUAGES);
  if (brokenMessages.length > 0) throw new ConfigError(`The message catalogues have problems:\n  ${brokenMessages.join("\n  ")}`);
  createPrivateFilesOnly();
  const channels = await buildNotificationChannels(config);
  const secret = await resolveAuthSecret(config);
  // Account commands arrive on the lock socket; they wait for the database to be ready.
  const ready: { deps?: AdminDeps } = {};
  const { database, lock } = await openConfiguredDatabase(
    config,
    adminSocketHandler(async (input) =>
      ready.deps ? runAdminCommand(ready.deps, input) : { ok: false, error: "the server is still starting; try again" },
    ),
  );
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
  if (mailer.transport === "log") log.info("no SMTP_URL: password reset emails are written to this log");
  const auth = createAuth({ db: database.db, publicUrl: config.PUBLIC_URL, secret, mailer });
  ready.deps = { db: database.db, auth };
  // Demo content goes into an embedded database only: a PostgreSQL one is a real deployment's.
  const demoContent = config.DEMO_CONTENT && database.kind === "pglite";
  if (await recordFirstStart(database.db, { demoContent, now: new Date() })) {
    log.info("seeded demo content into the new embedded database");
  }

  // The group's live data and the VRChat calendar, the Discord bot, and the outbox's workers.
  const vrchat = createVRChatServices(database.db, config, secret);
  const discord =
    config.DISCORD_BOT_TOKEN && config.DISCORD_GUILD_ID
      ? createDiscordBot({
          apiUrl: config.DISCORD_API_URL.replace(/\/+$/, ""),
          token: config.DISCORD_BOT_TOKEN,
          guildId: config.DISCORD_GUILD_ID,
          memberRoleId: config.DISCORD_MEMBER_ROLE_ID ?? null,
          siteUrl: config.PUBLIC_URL,
          timeoutMs: config.NOTIFICATION_TIMEOUT_SECONDS * 1000,
          spendShared: sharedAllowance(database.db),
        })
      : null;
  const workers = startWorkers({ db: database.db, config, channels, vrchat, discord });
  if (vrchat.membershipActions) log.info("decisions act in VRChat (VRCHAT_MEMBERSHIP_ACTIONS)");
  if (vrchat.calendar) log.info("events can be published to the group's VRChat calendar (VRCHAT_PUBLISH_EVENTS)");
  if (discord) log.info("the Discord bot is on", { memberRole: discord.roleConfigured });
  if (vrchat.groupData.source === "vrchat") log.info("VRChat group data enabled", { groupId: config.VRCHAT_GROUP_ID });
  else if (vrchat.groupData.source === "demo") log.info("VRChat is not configured: the demo group is shown");
  // Every job the server runs by itself (server/schedule.ts lists them).
  const targets = channels.map((channel) => channel.target);
  const schedule = startSchedule({ db: database.db, databaseKind: database.kind, config, vrchat, discord, targets, wakeActions: () => workers.actions.wake() });

  // Loaded now, not at the first page request: by then a new build may have replaced this one's
  // files on disk (a deploy building before the restart), and every page would fail.
  const loaded = options.build ?? ((await import("virtual:react-router/server-build")) as ServerBuild);
  const languagesFile = options.staticRoot && languagesFileIn(join(options.staticRoot, ".."));
  const { build, languageOfManifestRequest: manifestLanguage } = languageBuild(loaded, languagesFile, config.SITE_LANGUAGES);
  const health = createHealthCheck({ db: database.db, notifications: { targets }, vrchat, mail: mailer });
  ready.deps.health = health;
  const app = createApp({
    db: database.db,
    config,
    auth,
    mailTransport: mailer.transport,
    mail: mailer,
    notifications: {
      targets,
      wake: () => {
        workers.notifications.wake();
        workers.actions.wake();
      },
    },
    vrchat,
    discord,
    discordOAuth:
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
        : null,
    health,
    build,
    manifestLanguage,
    staticRoot: options.staticRoot,
  });
  const listener = getRequestListener(app.fetch);
  const devMiddleware = options.devMiddleware;
  const server = createServer((req, res) => {
    if (devMiddleware) devMiddleware(req, res, () => void listener(req, res));
    else void listener(req, res);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST;
  const url = `http://${host}:${port}`;
  log.info("listening", { url, database: database.kind });

  // A clean stop: refuse new connections, let requests in flight finish (closing each kept-alive
  // connection once it is idle), let the workers finish their job, then close the database.
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      schedule.stop();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      const deadline = setTimeout(() => {
        log.warn("requests still running at shutdown were cut short", { afterMs: SHUTDOWN_GRACE_MS });
        server.closeAllConnections();
      }, SHUTDOWN_GRACE_MS);
      await stopped;
      clearInterval(idle);
      clearTimeout(deadline);
      await Promise.all([workers.notifications.stop(), workers.actions.stop(), vrchat.groupData.settle(), vrchat.eventSync.settle()]);
      await database.close();
      await lock?.release();
      if (database.kind === "pglite") await makeOwnerOnly(config.DATA_DIR).catch(() => undefined);
      log.info("stopped");
    })();
    return closing;
  };
  return { url, config, database, close };
}

// The server bundle is also the account commands' entry (scripts/users.ts).
export { runAdminCommandOffline } from "./database";
