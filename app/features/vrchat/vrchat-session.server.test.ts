import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { vrchatSessions } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { databaseSessionStore } from "./vrchat-session.server";

const SECRET = "the-site-auth-secret-for-this-test-0123456789";

describeEachDatabase("the bot's stored VRChat session", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(vrchatSessions);
  });

  it("keeps its cookies sealed: the database alone does not hold them", async () => {
    const store = databaseSessionStore(database.db, "Bot@Example.org", SECRET);
    await store.saveLogin({ authCookie: "authcookie_secret-value", twoFactorCookie: "2fa-secret-value", userId: "usr_x" });
    const [row] = await database.db.select().from(vrchatSessions);
    expect(JSON.stringify(row)).not.toContain("secret-value");
    expect(row!.authCookie).toMatch(/^v1:[\w-]+$/);
    expect(await store.load()).toMatchObject({ authCookie: "authcookie_secret-value", twoFactorCookie: "2fa-secret-value", userId: "usr_x" });
  });

  it("seals cookies an earlier version stored in clear, the first time it reads them", async () => {
    await database.db.insert(vrchatSessions).values({ username: "bot@example.org", authCookie: "authcookie_old", twoFactorCookie: null });
    const store = databaseSessionStore(database.db, "bot@example.org", SECRET);
    expect(await store.load()).toMatchObject({ authCookie: "authcookie_old", twoFactorCookie: null });
    const [row] = await database.db.select().from(vrchatSessions);
    expect(row!.authCookie).toMatch(/^v1:/);
    expect((await store.load())?.authCookie).toBe("authcookie_old");
  });

  it("reads as no cookie under another secret (the bot logs in again), without failing", async () => {
    await databaseSessionStore(database.db, "bot@example.org", SECRET).saveLogin({ authCookie: "authcookie_a", twoFactorCookie: "tf", userId: null });
    const other = databaseSessionStore(database.db, "bot@example.org", "another-secret-entirely-0123456789abcdef");
    expect(await other.load()).toMatchObject({ authCookie: null, twoFactorCookie: null });
  });
});
