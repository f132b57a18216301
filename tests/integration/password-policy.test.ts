/**
 * A passphrase set before the policy (12 characters, not a common one): it still opens the
 * Sanctum, whose dashboard then asks for a new one until the admin has chosen one that passes.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, openPglite } from "~/db/db.server";
import { createAuth } from "~/utils/auth.server";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

const SECRET = "a-secret-for-the-password-policy-test-0123456789";
const OLD_SHORT = "moonlit";
const DUE = "Your passphrase is shorter than 12 characters or one of the most common ones.";

let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "dwell-policy-"));
  // An account from before the rule: made today, then given the short passphrase it had then.
  const first = await startServerProcess({ DATA_DIR: dataDir, AUTH_SECRET: SECRET });
  createAccountWithCommand(dataDir, "elder@dwell.example", "a-long-temporary-passphrase", "admin");
  await first.stop();
  const database = await openPglite(join(dataDir, "pgdata"));
  try {
    await migrateDatabase(database);
    const auth = createAuth({ db: database.db, publicUrl: "http://localhost", secret: SECRET, mailer: { send: async () => {} } });
    const ctx = await auth.$context;
    const user = await ctx.internalAdapter.findUserByEmail("elder@dwell.example");
    await ctx.internalAdapter.updatePassword(user!.user.id, await ctx.password.hash(OLD_SHORT));
  } finally {
    await database.close();
  }
  server = await startServerProcess({ DATA_DIR: dataDir, AUTH_SECRET: SECRET });
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a passphrase from before the policy", () => {
  it("still signs in, and the dashboard asks for a new one until it is changed", async () => {
    let cookie = await signIn(server.url, "elder@dwell.example", OLD_SHORT);
    const dashboard = await (await fetch(`${server.url}/admin`, { headers: { Cookie: cookie } })).text();
    expect(dashboard).toContain(DUE);

    const change = (newPassword: string) =>
      postForm(server.url, "/admin?index", { intent: "change-password", currentPassword: OLD_SHORT, newPassword, confirm: newPassword }, { Cookie: cookie });
    const refused = await change("leavemealone");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("This password is one of the most common ones.");
    expect(await (await fetch(`${server.url}/admin`, { headers: { Cookie: cookie } })).text()).toContain(DUE);

    const changed = await change("a-brand-new-elder-passphrase");
    expect(changed.status).toBe(200);
    cookie = changed.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const after = await (await fetch(`${server.url}/admin`, { headers: { Cookie: cookie } })).text();
    expect(after).toMatch(/Welcome, (<!-- -->)?elder/);
    expect(after).not.toContain(DUE);
    await expect(signIn(server.url, "elder@dwell.example", OLD_SHORT)).rejects.toThrow("401");

    // The dashboard tells its owner of failed sign-ins to the account, from anywhere.
    const told = (await (await fetch(`${server.url}/admin`, { headers: { Cookie: cookie } })).text()).replace(/<!-- -->/g, "");
    expect(told).toContain("1 failed sign-in(s) to your account in the last day, from anywhere");
    expect(told).toContain("past 20, each further try waits");

    // A stolen session guessing the current passphrase here meets the Security page's limit (10 checks in 15 minutes, both pages).
    const guess = (currentPassword: string) =>
      postForm(server.url, "/admin?index", { intent: "change-password", currentPassword, newPassword: "another-elder-passphrase", confirm: "another-elder-passphrase" }, { Cookie: cookie });
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const response = await guess(`wrong-guess-number-${i}`);
      statuses.push(response.status);
      await response.body?.cancel();
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400, 400, 429]);
    const right = await guess("a-brand-new-elder-passphrase");
    expect(right.status).toBe(429);
    expect(await right.text()).toContain("Too many tries. Please wait a few minutes and try again.");
    const security = await postForm(server.url, "/admin/security", { intent: "enable", password: "a-brand-new-elder-passphrase" }, { Cookie: cookie });
    expect(security.status).toBe(429);
    await security.body?.cancel();
  });
});
