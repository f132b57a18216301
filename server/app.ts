/**
 * The one server process: Hono owns middleware, /api/*, and (later) auth and workers, and hands
 * every other request to React Router. This file is the SSR bundle's entry, so the routes, the
 * database and the server share one module graph and one database connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { appContext } from "~/context";
import { lockDataDir, type DataDirLock } from "~/db/data-dir-lock.server";
import {
  migrateDatabase,
  openPglite,
  openPostgres,
  pingDatabase,
  type Database,
  type DatabaseHandle,
} from "~/db/db.server";
import { seedDemoContent } from "./demo-content";
import { loadConfig, type Config } from "~/utils/env.server";
import { log } from "~/utils/log.server";

export interface AppDeps {
  db: Database;
  config: Config;
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Serve the client build's files (production); in development Vite serves them. */
  staticRoot?: string;
}

export function createApp({ db, config, build, staticRoot }: AppDeps) {
  const app = new Hono();
  const handleRequest = createRequestHandler(build, config.NODE_ENV);

  app.use(async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "strict-origin-when-cross-origin");
  });

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
    context.set(appContext, { db, config });
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
  const { database, lock } = await openConfiguredDatabase(config);
  if (database.created && config.DEMO_CONTENT) {
    await seedDemoContent(database.db, new Date());
    log.info("seeded demo content into the new embedded database");
  }

  const build =
    options.build ??
    (() => import("virtual:react-router/server-build") as Promise<ServerBuild>);
  const app = createApp({ db: database.db, config, build, staticRoot: options.staticRoot });
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
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
      await lock?.release();
    })();
    return closing;
  };
  return { url, config, database, close };
}
