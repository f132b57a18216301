/**
 * The operator's account commands (npm run user:create / user:list / user:remove), and the
 * backup of the embedded database (npm run backup). While the server runs they travel over the
 * data folder's socket and run inside it (the embedded database has a single connection, held by
 * the server); otherwise the command opens the database itself.
 */
import type net from "node:net";
import { isAbsolute } from "node:path";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { AccountError, createAccount, listAccounts, removeAccount, resetTwoFactor } from "~/features/accounts/accounts.server";
import type { Auth } from "~/utils/auth.server";
import { log } from "~/utils/log.server";
import { pgliteClientOf, writePgliteBackup } from "./backup";
import type { HealthCheck } from "./health";

export const AdminCommandSchema = z.discriminatedUnion("command", [
  z.object({
    command: z.literal("user:create"),
    email: z.string(),
    password: z.string(),
    username: z.string().optional(),
    role: z.string().optional(),
  }),
  z.object({ command: z.literal("user:list") }),
  z.object({ command: z.literal("user:remove"), email: z.string() }),
  z.object({ command: z.literal("user:reset-2fa"), email: z.string() }),
  z.object({ command: z.literal("health") }),
  // The server writes the file itself: the path is the caller's, resolved on the same machine.
  z.object({ command: z.literal("backup"), path: z.string().refine(isAbsolute) }),
]);
export type AdminCommand = z.infer<typeof AdminCommandSchema>;
export type AdminReply = { ok: true; result: unknown } | { ok: false; error: string };

export interface AdminDeps {
  db: Database;
  auth: Auth;
  /** The running server's health check (not there for a command run without a server). */
  health?: HealthCheck;
}

export async function runAdminCommand(deps: AdminDeps, input: unknown): Promise<AdminReply> {
  const parsed = AdminCommandSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "unknown command" };
  const command = parsed.data;
  try {
    switch (command.command) {
      case "user:create": {
        const { command: _, ...account } = command;
        const created = await createAccount(deps.auth, account as Parameters<typeof createAccount>[1]);
        log.info("account created by the operator", { email: created.email, role: created.role });
        return { ok: true, result: created };
      }
      case "user:list":
        return { ok: true, result: await listAccounts(deps.db) };
      case "user:remove": {
        const removed = await removeAccount(deps.db, command.email);
        if (removed) log.info("account removed by the operator", { email: command.email });
        return removed ? { ok: true, result: { removed: command.email } } : { ok: false, error: `No account has the email ${command.email}.` };
      }
      case "user:reset-2fa": {
        const reset = await resetTwoFactor(deps.db, command.email);
        if (!reset) return { ok: false, error: `No account has the email ${command.email}.` };
        log.info("two-factor sign-in reset by the operator", { userId: reset.id });
        return { ok: true, result: { reset: reset.email } };
      }
      case "health": {
        if (!deps.health) return { ok: false, error: "No server is running on this data folder: there is no health to report." };
        return { ok: true, result: (await deps.health()).body };
      }
      case "backup": {
        const client = pgliteClientOf(deps.db);
        if (!client) return { ok: false, error: "This server runs on PostgreSQL: npm run backup uses pg_dump for it." };
        try {
          const written = await writePgliteBackup(client, command.path);
          log.info("backup written", { ...written });
          return { ok: true, result: written };
        } catch (error) {
          log.error("backup failed", { error, path: command.path });
          // The operator needs the reason (a folder it may not write to, a full disk) where they ran the command.
          return { ok: false, error: `The backup failed: ${error instanceof Error ? error.message : String(error)}` };
        }
      }
    }
  } catch (error) {
    if (error instanceof AccountError) return { ok: false, error: error.message };
    log.error("admin command failed", { error, command: command.command });
    return { ok: false, error: "The command failed; see the server log." };
  }
}

/** One JSON line in, one JSON line out, per connection. */
export function adminSocketHandler(run: (input: unknown) => Promise<AdminReply>) {
  return (socket: net.Socket) => {
    let buffer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      if (buffer.length > 64 * 1024) return socket.end(`${JSON.stringify({ ok: false, error: "command too long" })}\n`);
      const newline = buffer.indexOf("\n");
      if (newline === -1) return;
      let input: unknown;
      try {
        input = JSON.parse(buffer.slice(0, newline));
      } catch {
        return socket.end(`${JSON.stringify({ ok: false, error: "not JSON" })}\n`);
      }
      void run(input).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
    socket.on("error", () => socket.destroy());
  };
}
