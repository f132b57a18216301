import { afterAll, beforeAll, expect, it } from "vitest";
import { createAuth, getViewer, type Auth } from "~/utils/auth.server";
import type { EmailMessage } from "~/utils/email.server";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { AccountError, createAccount, listAccounts, removeAccount } from "./accounts.server";

describeEachDatabase("accounts", (kind) => {
  let database: TestDatabase;
  let auth: Auth;
  const sent: EmailMessage[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    auth = createAuth({
      db: database.db,
      publicUrl: "http://localhost:3000",
      secret: "a-test-secret-that-is-long-enough-1234",
      mailer: { send: async (message) => void sent.push(message) },
    });
  });
  afterAll(() => database.close());

  async function signIn(email: string, password: string) {
    const { headers } = await auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
    const cookie = headers.get("set-cookie")!.split(";")[0]!;
    return new Request("http://localhost:3000/admin", { headers: { cookie } });
  }

  it("creates an owner (the first, or a recovery) who can sign in", async () => {
    const account = await createAccount(auth, { email: " Keeper@Dwell.Example ", password: "moonlight-over-the-hall", username: "Keeper" });
    expect(account).toMatchObject({ email: "keeper@dwell.example", username: "Keeper", role: "owner" });
    const viewer = await getViewer(auth, await signIn("keeper@dwell.example", "moonlight-over-the-hall"));
    expect(viewer).toEqual({ id: account.id, username: "Keeper", email: "keeper@dwell.example", role: "owner", twoFactorEnabled: false, language: null });
  });

  it("refuses a wrong password without saying whether the account exists", async () => {
    const wrong = await auth.api.signInEmail({ body: { email: "keeper@dwell.example", password: "sunlight" } }).catch((e: Error) => e.message);
    const unknown = await auth.api.signInEmail({ body: { email: "nobody@dwell.example", password: "sunlight" } }).catch((e: Error) => e.message);
    expect(wrong).toBe(unknown);
  });

  it("makes members who are not admins", async () => {
    await createAccount(auth, { email: "member@dwell.example", password: "starlight-over-the-hall", role: "member" });
    expect((await getViewer(auth, await signIn("member@dwell.example", "starlight-over-the-hall")))?.role).toBe("member");
  });

  it("refuses bad input and a second account with the same email", async () => {
    await expect(createAccount(auth, { email: "not-an-email", password: "x" })).rejects.toThrow(AccountError);
    await expect(createAccount(auth, { email: "short@dwell.example", password: "elevenchars" })).rejects.toThrow(
      "--password: Password must be at least 12 characters",
    );
    // Long enough, and among the 10,000 most common passwords, in any case.
    for (const common of ["1QAZ2WSX3EDC", "qwerty123456", "leavemealone"]) {
      await expect(createAccount(auth, { email: "common@dwell.example", password: common })).rejects.toThrow(
        "This password is one of the most common ones. Please choose another.",
      );
    }
    await expect(createAccount(auth, { email: "KEEPER@dwell.example", password: "moonlight-over-the-hall" })).rejects.toThrow(/already exists/);
  });

  it("lists and removes accounts, ending their sessions", async () => {
    const request = await signIn("member@dwell.example", "starlight-over-the-hall");
    expect((await listAccounts(database.db)).map((a) => a.email)).toEqual(["keeper@dwell.example", "member@dwell.example"]);
    expect(await removeAccount(database.db, "Member@dwell.example")).toBe(true);
    expect(await removeAccount(database.db, "member@dwell.example")).toBe(false);
    expect(await getViewer(auth, request)).toBeNull();
  });

  it("sends a reset link to /admin/reset-password that sets a new password", async () => {
    await auth.api.requestPasswordReset({ body: { email: "keeper@dwell.example" } });
    const link = /http:\/\/localhost:3000\/admin\/reset-password\?token=(\S+)/.exec(sent.at(-1)!.text);
    expect(link).not.toBeNull();
    await auth.api.resetPassword({ body: { newPassword: "a-new-moon-rising", token: decodeURIComponent(link![1]!) } });
    expect(await getViewer(auth, await signIn("keeper@dwell.example", "a-new-moon-rising"))).not.toBeNull();
  });
});
