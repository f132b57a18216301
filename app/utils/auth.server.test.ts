import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/setup/test-database";
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
