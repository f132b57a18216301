/**
 * `npm start` (production) and `npm run dev`: loads `.env`, makes sure the production build is
 * current, starts the server, and stops it cleanly on SIGTERM/SIGINT.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuild, root, serverBundle } from "./build.ts";

const dev = process.argv.includes("--dev");

if (existsSync(join(root, ".env"))) process.loadEnvFile(join(root, ".env"));
// React and its libraries pick their development or production build from NODE_ENV when first
// imported: set it before anything loads them (without it, production would run React's slow
// development build).
process.env.NODE_ENV ??= dev ? "development" : "production";

interface ServerModule {
  startServer(options: Record<string, unknown>): Promise<{ close(): Promise<void> }>;
}

async function start() {
  if (dev) {
    const vite = await import("vite");
    // The messages compile a module a language while developing (vite.config.ts).
    process.env.DWELL_DEV_SERVER = "1";
    const viteServer = await vite.createServer({
      root,
      server: { middlewareMode: true },
      appType: "custom",
    });
    const module = (await viteServer.ssrLoadModule("./server/app.ts")) as ServerModule;
    return module.startServer({
      devMiddleware: viteServer.middlewares,
      build: () => viteServer.ssrLoadModule("virtual:react-router/server-build"),
    });
  }
  ensureBuild();
  const module = (await import(pathToFileURL(serverBundle).href)) as ServerModule;
  return module.startServer({ staticRoot: join(root, "build/client"), messagesDir: join(root, "messages") });
}

if (process.argv.includes("--build-only")) {
  ensureBuild();
  process.exit(0);
}

try {
  const server = await start();
  const stop = (signal: string) => {
    console.log(JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "stopping", signal }));
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
} catch (error) {
  // Configuration and data-folder problems are the operator's to fix: say what, not where.
  if (error instanceof Error && ["ConfigError", "DataDirLockedError"].includes(error.name)) {
    console.error(`Dwell cannot start. ${error.message}`);
  } else {
    console.error("Dwell failed to start:", error);
  }
  process.exit(1);
}
