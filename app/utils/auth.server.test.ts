import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { verifications } from "~/db/schema";
import { createAuth } from "./auth.server";

describe("session cookies", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(() => database.close());

  async function sessionCookie(publicUrl: string) {
    const auth = createAuth({ db: database.db, publicUrl, secret: "s".repeat(32), mailer: { send: async () => {} } });
    return (await auth.$context).authCookies.sessionToken;
  }

  it("are Secure, with the __Secure- prefix, when the site is served over https", async () => {
    const cookie = await sessionCookie("https://dwell.example");
    expect(cookie.name).toBe("__Secure-dwell.session_token");
    expect(cookie.attributes).toMatchObject({ secure: true, httpOnly: true, sameSite: "lax" });
  });

  it("are plain over http, or a browser would drop them", async () => {
    const cookie = await sessionCookie("http://localhost:3000");
    expect(cookie.name).toBe("dwell.session_token");
    expect(cookie.attributes).toMatchObject({ secure: false, httpOnly: true });
  });
});

describe("reset links at rest", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(() => database.close());

  it("are kept as hashes: the database holds no token that opens an account", async () => {
    const links: string[] = [];
    const auth = createAuth({
      db: database.db,
      publicUrl: "https://dwell.example",
      secret: "s".repeat(32),
      mailer: { send: async ({ text }) => void links.push(text) },
    });
    const ctx = await auth.$context;
    const user = await ctx.internalAdapter.createUser({ email: "keeper@dwell.example", name: "keeper", emailVerified: true }, { method: "admin" } as never);
    await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: await ctx.password.hash("a-long-passphrase") });
    await auth.api.requestPasswordReset({ body: { email: "keeper@dwell.example" } });
    const token = decodeURIComponent(/token=([^\s]+)/.exec(links[0]!)![1]!);
    const stored = await database.db.select().from(verifications);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
    // The link still works.
    await auth.api.resetPassword({ body: { token, newPassword: "another-long-passphrase" } });
    expect(await database.db.select().from(verifications)).toHaveLength(0);
  });
});
