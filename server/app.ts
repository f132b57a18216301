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
import { lockDataDir, type DataDirLock } from "~/db/data-dir-lock.server";
import {
  migrateDatabase,
  openPglite,
  openPostgres,
  pingDatabase,
  type Database,
  type DatabaseHandle,
} from "~/db/db.server";
import { buildNotificationChannels } from "~/features/notifications/channels.server";
import { createOutboxWorker } from "~/features/notifications/outbox.server";
import { loadConfig, type Config } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { pruneRateLimits } from "~/utils/rate-limit.server";
import { seedDemoContent } from "./demo-content";

/** Requests with a body larger than this are refused with 413 before anything reads them. */
export const MAX_BODY_BYTES = 256 * 1024;

export interface AppDeps {
  db: Database;
  config: Config;
  notifications: AppContext["notifications"];
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Serve the client build's files (production); in development Vite serves them. */
  staticRoot?: string;
}

/**
 * The client's address: the socket's peer, or behind a trusted reverse proxy the last entry of
 * X-Forwarded-For (the one the proxy itself added; earlier entries are whatever the client sent).
 */
function clientAddress(c: Context<{ Bindings: HttpBindings }>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return getConnInfo(c).remote.address ?? "unknown";
}

export function createApp({ db, config, notifications, build, staticRoot }: AppDeps) {
  const app = new Hono<{ Bindings: HttpBindings }>();
  const handleRequest = createRequestHandler(build, config.NODE_ENV);

  app.use(async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "strict-origin-when-cross-origin");
  });

  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      // The unread rest of the body is still on the connection: close it rather than reuse it.
      onError: (c) => c.text("The request is too large (256 KB at most).", 413, { Connection: "close" }),
    }),
  );

  app.get("/api/health", async (c) => {
    try {
      await pingDatabase(db);
      return c.json({ status: "ok", database: "ok" });
    } catch (error) {
      log.error("health check: database unreachable", { error });
      return c.json({ status: "error", database: "unreachable" }, 503);
    }
  });
  app.all("/api/*", (c) => c.json({ error: "Not found" }, 404));

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

  app.all("*", (c) => {
    const context = new RouterContextProvider();
    context.set(appContext, {
      db,
      config,
      clientAddress: clientAddress(c, config.TRUST_PROXY),
      notifications,
    });
    return handleRequest(c.req.raw, context);
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
}

export interface RunningServer {
  url: string;
  config: Config;
  database: DatabaseHandle;
  close(): Promise<void>;
}

async function openConfiguredDatabase(config: Config) {
  if (config.DATABASE_URL) {
    const database = openPostgres(config.DATABASE_URL);
    await migrateDatabase(database, config.DATABASE_URL);
    return { database, lock: null };
  }
  const lock: DataDirLock = await lockDataDir(config.DATA_DIR);
  try {
    const database = await openPglite(join(config.DATA_DIR, "pgdata"));
    await migrateDatabase(database);
    return { database, lock };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config = loadConfig(options.env);
  const channels = await buildNotificationChannels(config);
  const { database, lock } = await openConfiguredDatabase(config);
  if (database.created && config.DEMO_CONTENT) {
    await seedDemoContent(database.db, new Date());
    log.info("seeded demo content into the new embedded database");
  }

  const outboxWorker = createOutboxWorker(database.db, channels, { maxAttempts: config.OUTBOX_MAX_ATTEMPTS });
  outboxWorker.start();
  if (channels.length > 0) log.info("notifications enabled", { targets: channels.map((c) => c.target) });

  // Hourly housekeeping: rate-limit windows older than a day are of no use.
  const housekeeping = setInterval(() => {
    pruneRateLimits(database.db, new Date(Date.now() - 24 * 60 * 60 * 1000)).catch((error: unknown) =>
      log.warn("pruning rate limits failed", { error }),
    );
  }, 60 * 60 * 1000);
  housekeeping.unref();

  const build =
    options.build ??
    (() => import("virtual:react-router/server-build") as Promise<ServerBuild>);
  const app = createApp({
    db: database.db,
    config,
    notifications: { targets: channels.map((channel) => channel.target), wake: outboxWorker.wake },
    build,
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

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(housekeeping);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await outboxWorker.stop();
      await database.close();
      await lock?.release();
    })();
    return closing;
  };
  return { url, config, database, close };
}
