/**
 * npm run user:create -- --email E [--password P] [--username U] [--role owner|admin|reviewer|host]
 * npm run user:list
 * npm run user:remove -- --email E
 * npm run user:reset-2fa -- --email E
 *
 * The password may come from USER_PASSWORD instead of --password, to keep it out of the shell's
 * history. The role is owner by default: the command makes the first owner, and recovers a team
 * that lost its owners; the rest of the team is invited from the Sanctum's Team page. Works whether or not the server is running (see server/admin-commands.ts).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ensureBuild, root, serverBundle } from "../server/build.ts";
import { askRunningServer, type Reply } from "./ask-server.ts";

const USAGE = `Usage:
  npm run user:create -- --email E [--password P] [--username U] [--role owner|admin|reviewer|host]
  npm run user:list
  npm run user:remove -- --email E
  npm run user:reset-2fa -- --email E`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if (existsSync(join(root, ".env"))) process.loadEnvFile(join(root, ".env"));

const [action, ...rest] = process.argv.slice(2);
let parsed;
try {
  parsed = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      username: { type: "string" },
      role: { type: "string" },
    },
  }).values;
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}

let command: Record<string, unknown>;
switch (action) {
  case "create": {
    const password = parsed.password ?? process.env.USER_PASSWORD;
    if (!parsed.email) fail(`--email is required.\n${USAGE}`);
    if (!password) fail(`Give the password with --password, or in the USER_PASSWORD environment variable.\n${USAGE}`);
    command = { command: "user:create", email: parsed.email, password, username: parsed.username, role: parsed.role ?? "owner" };
    break;
  }
  case "list":
    command = { command: "user:list" };
    break;
  case "remove":
    if (!parsed.email) fail(`--email is required.\n${USAGE}`);
    command = { command: "user:remove", email: parsed.email };
    break;
  case "reset-2fa":
    if (!parsed.email) fail(`--email is required.\n${USAGE}`);
    command = { command: "user:reset-2fa", email: parsed.email };
    break;
  default:
    fail(USAGE);
}

async function run(): Promise<Reply> {
  if (!process.env.DATABASE_URL) {
    const socketPath = join(resolve(process.env.DATA_DIR || "./data"), ".dwell.sock");
    const reply = await askRunningServer(socketPath, command);
    if (reply) return reply;
  }
  ensureBuild();
  const bundle = (await import(pathToFileURL(serverBundle).href)) as {
    runAdminCommandOffline(command: unknown): Promise<Reply>;
  };
  return bundle.runAdminCommandOffline(command);
}

function print(result: unknown) {
  if (action === "list") {
    const accounts = result as { email: string; username: string; role: string; createdAt: string }[];
    if (accounts.length === 0) return console.log("No accounts yet. Create one with: npm run user:create -- --email E");
    for (const account of accounts) {
      console.log(`${account.role.padEnd(8)} ${account.email}  (${account.username}, since ${new Date(account.createdAt).toISOString().slice(0, 10)})`);
    }
  } else if (action === "create") {
    const account = result as { email: string; username: string; role: string };
    console.log(`Created ${account.role} account ${account.email} (username ${account.username}).`);
    if (account.role !== "member") {
      const required = process.env.REQUIRE_ADMIN_2FA === "true" ? " (required here: REQUIRE_ADMIN_2FA is on)" : "";
      console.log(`Two-factor sign-in is set up from the Sanctum's Security page after signing in${required}.`);
    }
  } else if (action === "reset-2fa") {
    console.log(`Two-factor sign-in is off for ${(result as { reset: string }).reset}, and its sessions have ended. It can be set up again from the Sanctum's Security page.`);
  } else {
    console.log(`Removed the account ${(result as { removed: string }).removed}.`);
  }
}

try {
  const reply = await run();
  if (!reply.ok) fail(reply.error);
  print(reply.result);
} catch (error) {
  fail(`The command failed: ${error instanceof Error ? error.message : String(error)}`);
}
