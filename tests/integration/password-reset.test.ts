/**
 * A forgotten passphrase, renewed through a real email sent over SMTP to a server on loopback, with
 * the site configured as it is behind an https proxy: its pages posted from https://dwell.example.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountWithCommand, postForm as postFormFrom, signIn as signInFrom } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

const mails: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;
let server: ServerProcess;
let dataDir: string;

const SITE = "https://dwell.example";
/** What the proxy passes on: the page's own origin, and the scheme the visitor used. */
const PROXIED = { Origin: SITE, "X-Forwarded-Proto": "https" };
const postForm = (base: string, path: string, values: Record<string, string>, headers: Record<string, string> = {}) =>
  postFormFrom(base, path, values, { ...PROXIED, ...headers });
const signIn = (base: string, email: string, password: string) => signInFrom(base, email, password, PROXIED);

/** A message's body as UTF-8 text, whichever transfer encoding the mailer chose for it. */
function bodyText(raw: string) {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

/** The text of a message, undoing quoted-printable soft breaks and escapes. */
function decoded(raw: string) {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString()));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  dataDir = mkdtempSync(join(tmpdir(), "dwell-reset-"));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: "Dwell <sanctum@dwell.example>",
    RATE_LIMIT_SIGN_IN: "5",
    // The limit test below speaks from several addresses, named in X-Forwarded-For.
    TRUST_PROXY: "true",
    PUBLIC_URL: SITE,
    SITE_LANGUAGES: "en,ja",
  });
  createAccountWithCommand(dataDir, "keeper@dwell.example", "old-moonlight", "admin");
});

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await rm(dataDir, { recursive: true, force: true });
});

describe("renewing a passphrase by email", () => {
  it("sends the link, checks the new passphrase, and lets the admin in with it", async () => {
    const asked = await postForm(server.url, "/admin/forgot-password", { email: "Keeper@dwell.example" });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("Password reset email sent!");
    await expect.poll(() => mails.length, { timeout: 10_000 }).toBe(1);
    expect(mails[0]!.to).toEqual(["keeper@dwell.example"]);
    const text = decoded(mails[0]!.raw);
    expect(text).toContain("From: Dwell <sanctum@dwell.example>");
    // The link is to the site's public address, never to the address the server listens on.
    const link = /https:\/\/dwell\.example(\/admin\/reset-password\?token=([A-Za-z0-9%._~-]+))/.exec(text);
    expect(link).not.toBeNull();
    const path = link![1]!;
    const token = decodeURIComponent(link![2]!);

    expect((await fetch(`${server.url}${path}`)).status).toBe(200);
    const mismatch = await postForm(server.url, path, { token, password: "new-moonlight", confirm: "new-moonlite" });
    expect(await mismatch.text()).toContain("Passwords do not match");
    const short = await postForm(server.url, path, { token, password: "new-moonlit", confirm: "new-moonlit" });
    expect(await short.text()).toContain("Password must be at least 12 characters");
    const common = await postForm(server.url, path, { token, password: "qwerty123456", confirm: "qwerty123456" });
    expect(await common.text()).toContain("This password is one of the most common ones. Please choose another.");
    const updated = await postForm(server.url, path, { token, password: "new-moonlight", confirm: "new-moonlight" });
    expect(await updated.text()).toContain("Passphrase Updated");

    const again = await postForm(server.url, path, { token, password: "third-moonlight", confirm: "third-moonlight" });
    expect(await again.text()).toContain("Invalid reset link. Please request a new password reset.");

    await expect(signIn(server.url, "keeper@dwell.example", "old-moonlight")).rejects.toThrow("401");
    const cookie = await signIn(server.url, "keeper@dwell.example", "new-moonlight");
    // Served over https by the proxy: the session cookie is a Secure one.
    expect(cookie).toMatch(/^__Secure-dwell\.session_token=/);
    const sanctum = await fetch(`${server.url}/admin`, { headers: { cookie } });
    expect(sanctum.status).toBe(200);
    expect(await sanctum.text()).toMatch(/Welcome, (<!-- -->)?keeper/);
  });

  it("answers the same for an unknown email, and sends nothing", async () => {
    const before = mails.length;
    const asked = await postForm(server.url, "/admin/forgot-password", { email: "nobody@dwell.example" });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("Password reset email sent!");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mails.length).toBe(before);
  });

  it("sends an account at most 3 links an hour, and each new link revokes the earlier ones", async () => {
    createAccountWithCommand(dataDir, "ranger@dwell.example", "ranger-passphrase-long", "admin");
    const before = mails.length;
    for (const [i, address] of ["192.0.2.31", "192.0.2.32", "192.0.2.33", "192.0.2.34"].entries()) {
      const asked = await postForm(server.url, "/admin/forgot-password", { email: "ranger@dwell.example" }, { "X-Forwarded-For": address });
      expect(asked.status, `request ${i + 1}`).toBe(i < 3 ? 200 : 429);
      await asked.body?.cancel();
      if (i < 3) await expect.poll(() => mails.length, { timeout: 10_000 }).toBe(before + i + 1);
    }
    const tokens = mails.slice(before).map((mail) => decodeURIComponent(/token=([A-Za-z0-9%._~-]+)/.exec(decoded(mail.raw))![1]!));
    expect(new Set(tokens).size).toBe(3);
    const path = (token: string) => `/admin/reset-password?token=${encodeURIComponent(token)}`;
    for (const token of tokens.slice(0, 2)) {
      const revoked = await postForm(server.url, path(token), { token, password: "a-new-ranger-pass", confirm: "a-new-ranger-pass" });
      expect(await revoked.text()).toContain("Invalid reset link. Please request a new password reset.");
    }
    const latest = await postForm(server.url, path(tokens[2]!), { token: tokens[2]!, password: "a-new-ranger-pass", confirm: "a-new-ranger-pass" });
    expect(await latest.text()).toContain("Passphrase Updated");
  });

  it("writes to an account in the language it chose for the Sanctum", async () => {
    createAccountWithCommand(dataDir, "hoshi@dwell.example", "hoshi-passphrase-long", "admin");
    const cookie = await signIn(server.url, "hoshi@dwell.example", "hoshi-passphrase-long");
    const chosen = await postForm(server.url, "/admin/security", { intent: "language", language: "ja" }, { cookie });
    expect(chosen.status).toBe(303);
    const before = mails.length;
    // Asked from an English page: the mail is in the account's language all the same.
    const asked = await postForm(server.url, "/admin/forgot-password", { email: "hoshi@dwell.example" }, { "X-Forwarded-For": "192.0.2.41" });
    expect(asked.status).toBe(200);
    await expect.poll(() => mails.length, { timeout: 10_000 }).toBe(before + 1);
    const text = bodyText(mails.at(-1)!.raw);
    expect(text).toContain("Dwell で hoshi@dwell.example のパスフレーズの再設定が求められました");
    expect(text).toMatch(/https:\/\/dwell\.example\/admin\/reset-password\?token=/);
  });

  it("asks for an email first", async () => {
    const asked = await postForm(server.url, "/admin/forgot-password", { email: "" });
    expect(asked.status).toBe(400);
    expect(await asked.text()).toContain("Please enter your email address first");
  });
});

describe("sign-in limits", () => {
  const attempt = (address: string, email: string, password: string) =>
    postForm(server.url, "/admin/sign-in", { email, password }, { "X-Forwarded-For": address });

  it("spaces out one client's guesses at an account, but lets the admin in from elsewhere", async () => {
    createAccountWithCommand(dataDir, "warden@dwell.example", "warden-passphrase-long", "admin");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await attempt("203.0.113.7", "warden@dwell.example", `guess-${i}`);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(await response.text()).toContain("Too many sign-in attempts");
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(25);
      } else await response.body?.cancel();
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // The guesser is slowed even with the right passphrase; the admin, elsewhere, is not.
    expect((await attempt("203.0.113.7", "warden@dwell.example", "warden-passphrase-long")).status).toBe(429);
    const admin = await attempt("198.51.100.20", "warden@dwell.example", "warden-passphrase-long");
    expect(admin.status).toBe(302);
    // Someone else failing from yet another address is told so, not locked out by the guesser.
    expect((await attempt("198.51.100.21", "warden@dwell.example", "typo")).status).toBe(401);
  });

  it("counts an IPv6 client by its /64, across accounts", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const response = await attempt(`2001:db8:7:1::${i}`, `someone${i}@dwell.example`, "guess");
      await response.body?.cancel();
      statuses.push(response.status);
    }
    // RATE_LIMIT_SIGN_IN is 5 here.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const neighbour = await attempt("2001:db8:7:2::1", "someone1@dwell.example", "guess");
    expect(neighbour.status).toBe(401);
  });

  it("does not tell whether an account exists", async () => {
    const unknown = await postForm(server.url, "/admin/sign-in", { email: "nobody-here@dwell.example", password: "whatever" }, { "X-Forwarded-For": "203.0.113.9" });
    const known = await postForm(server.url, "/admin/sign-in", { email: "keeper@dwell.example", password: "wrong-one" }, { "X-Forwarded-For": "203.0.113.10" });
    expect(unknown.status).toBe(401);
    expect(known.status).toBe(401);
    const message = (html: string) => /Invalid email or password/.test(html);
    expect(message(await unknown.text())).toBe(true);
    expect(message(await known.text())).toBe(true);
  });
});
