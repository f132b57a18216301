/**
 * npm run health: the running server's health in full (each integration's last success and
 * failure), asked over the data folder's socket. `/api/health` tells the public only ok/degraded.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { root } from "../server/build.ts";
import { askRunningServer } from "./ask-server.ts";

if (existsSync(join(root, ".env"))) process.loadEnvFile(join(root, ".env"));

if (process.env.DATABASE_URL) {
  console.error("On PostgreSQL the server has no local socket: the Sanctum's dashboard shows the same details.");
  process.exit(1);
}
const socketPath = join(resolve(process.env.DATA_DIR || "./data"), ".dwell.sock");
try {
  const reply = await askRunningServer(socketPath, { command: "health" });
  if (!reply) {
    console.error(`No server is running on ${resolve(process.env.DATA_DIR || "./data")}.`);
    process.exit(1);
  }
  if (!reply.ok) {
    console.error(reply.error);
    process.exit(1);
  }
  console.log(JSON.stringify(reply.result, null, 2));
} catch (error) {
  console.error(`The command failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
