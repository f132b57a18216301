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
import { GROUP_DATA_FAILED, GROUP_DATA_PATH } from "~/features/vrchat/group-data";
import { oneSnapshotPerRequest } from "~/features/vrchat/group-data.server";
import { decideServices } from "~/flows/decide.server";
import { answerInteraction } from "~/flows/discord-interaction.server";
import { formGuardHoles } from "~/flows/submit-application.server";
import { crossSiteMessage } from "~/utils/admin-guard.server";
import { resolveAuthSecret } from "~/utils/auth-secret.server";
import { CLIENT_IP_HEADER, createAuth, type Auth } from "~/utils/auth.server";
import type { Mailer } from "~/utils/email.server";
import { settingsSealKey } from "~/features/connections/settings.server";
import { offerFirstOwnerSetup } from "~/features/accounts/first-owner.server";
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
import { publicHealth, type HealthCheck } from "./health";
import { startConnections, type Connected, type LiveConnections } from "./connections";
import { compression } from "./compression";
import { APPLICATION_FORM_PATH, createPageCache, privateResponse } from "./page-cache";
import { isCrossSite, reportCrossSite, siteOrigin, underPublicOrigin } from "./public-origin";
import { openConfiguredDatabase } from "./database";
import { securityHeaders } from "./security-headers";
import { isSanctumPath } from "~/utils/sanctum-path";

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
  /** The configuration the server started with: what no saved setting changes (its address, its limits). */
  config: Config;
  auth: Auth;
  /** The connections as they stand (server/connections.ts): taken anew by each request. */
  live: LiveConnections;
  /** The saved settings: the environment they sit beside, and their key (features/connections). */
  settings: AppContext["settings"];
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
  path
    .replace(/^\/applications\/status\/[^/]+/, "/applications/status/[token]")
    .replace(/^\/admin\/join\/[^/]+/, "/admin/join/[token]")
    .replace(/^\/rate\/[^/]+/, "/rate/[token]");

export const DISCORD_INTERACTIONS_PATH = "/discord/interactions";

/** A request id sent by a trusted proxy is kept (so its logs and ours line up); otherwise ours. */
const REQUEST_ID = /^[\w=-]{1,64}$/;

export function createApp({ db, config, auth, live, settings, build, manifestLanguage, staticRoot }: AppDeps) {
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
    const { status, body } = publicHealth(await live.current().health());
    c.header("Cache-Control", "no-store");
    return c.json(body, status);
  });
  // The group's live data, from the server's cache (spec section 3, flattened).
  app.get(GROUP_DATA_PATH, async (c) => {
    const state = await live.current().vrchat.groupData.get();
    c.header("Cache-Control", "no-cache");
    if (state.status === "ready") return c.json(state.data);
    if (state.status === "off") return c.json({ message: "Group statistics are not enabled on this site." }, 404);
    // The reason stays in the log and the Sanctum (see forVisitors).
    const message = state.status === "error" ? GROUP_DATA_FAILED : "VRChat data is not available yet.";
    return c.json({ message }, 503);
  });

  // Imports the VRChat calendar into the events; throttled, so visitors cannot make it run often.
  app.post("/api/sync-events", async (c) => {
    const outcome = await live.current().vrchat.eventSync.run("visit");
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
  app.post(DISCORD_INTERACTIONS_PATH, async (c) => {
    const { interactionKey, config, vrchat, discord } = live.current();
    const notifications = notificationsOf(live.current());
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
    const connected = live.current();
    const { vrchat, discord, discordOAuth } = connected;
    const requestVRChat = { ...vrchat, groupData: oneSnapshotPerRequest(vrchat.groupData) };
    const request = underPublicOrigin(c.req.raw, origin);
    // Each public page in the visitor's language; the Sanctum in the staff member's (set by its layout's middleware once the session is read).
    const language = manifestLanguage?.(new URL(request.url)) ?? languageOfRequest(request, languages);
    // better-auth reads the client's address from this header (it cannot see the socket).
    request.headers.set(CLIENT_IP_HEADER, address);
    const render = (sharedRender: boolean) => {
      const context = new RouterContextProvider();
      context.set(appContext, {
        db,
        config: connected.config,
        auth,
        mailTransport: connected.mailer.transport,
        mail: connected.mailer,
        clientAddress: address,
        notifications: notificationsOf(connected),
        vrchat: requestVRChat,
        discord,
        discordOAuth,
        settings,
        cspNonce,
        language,
        sharedRender,
      });
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

/** The staff's notification targets, and the workers to wake once a job is queued. */
function notificationsOf(connected: Connected): AppContext["notifications"] {
  return {
    targets: connected.targets,
    wake: () => {
      connected.workers.notifications.wake();
      connected.workers.actions.wake();
    },
  };
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
  const secret = await resolveAuthSecret(config);
  // Account commands arrive on the lock socket; they wait for the database to be ready.
  const ready: { deps?: AdminDeps } = {};
  const { database, lock } = await openConfiguredDatabase(
    config,
    adminSocketHandler(async (input) =>
      ready.deps ? runAdminCommand(ready.deps, input) : { ok: false, error: "the server is still starting; try again" },
    ),
  );
  const source = options.env ?? process.env;
  // The connections (VRChat, Discord, the notifications, the mail, the workers, the schedule), as
  // the environment and the Connections page set them; a saved change is taken without a restart.
  const live = await startConnections({ db: database.db, databaseKind: database.kind, secret, source }, config);
  // Password resets go by the mail as it stands.
  const mailer = { send: (message: Parameters<Mailer["send"]>[0]) => live.current().mailer.send(message) };
  const auth = createAuth({ db: database.db, publicUrl: config.PUBLIC_URL, secret, mailer });
  const health: HealthCheck = () => live.current().health();
  ready.deps = { db: database.db, auth, health };
  // Demo content goes into an embedded database only: a PostgreSQL one is a real deployment's.
  const demoContent = config.DEMO_CONTENT && database.kind === "pglite";
  if (await recordFirstStart(database.db, { demoContent, now: new Date() })) {
    log.info("seeded demo content into the new embedded database");
  }
  // No staff account yet: the first owner is made in the browser with a code only this log and the data folder hold.
  await offerFirstOwnerSetup(database.db, config.DATA_DIR, new Date());

  // Loaded now, not at the first page request: by then a new build may have replaced this one's
  // files on disk (a deploy building before the restart), and every page would fail.
  const loaded = options.build ?? ((await import("virtual:react-router/server-build")) as ServerBuild);
  const languagesFile = options.staticRoot && languagesFileIn(join(options.staticRoot, ".."));
  const { build, languageOfManifestRequest: manifestLanguage } = languageBuild(loaded, languagesFile, config.SITE_LANGUAGES);
  const app = createApp({
    db: database.db,
    config,
    auth,
    live,
    settings: { source, key: settingsSealKey(secret), refresh: () => live.refresh() },
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

  // An idle kept-alive connection is closed after 65 s, not Node's 5: a reverse proxy (nginx keeps
  // its upstream connections for 60 s) or a client sending its next request on a connection as the
  // server closes it gets a reset instead of an answer, and on a busy machine 5 s is one slow step.
  server.keepAliveTimeout = 65_000;
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
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      const deadline = setTimeout(() => {
        log.warn("requests still running at shutdown were cut short", { afterMs: SHUTDOWN_GRACE_MS });
        server.closeAllConnections();
      }, SHUTDOWN_GRACE_MS);
      await stopped;
      clearInterval(idle);
      clearTimeout(deadline);
      await live.close();
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
