/**
 * Two-factor sign-in as an admin meets it on a production server with REQUIRE_ADMIN_2FA: the
 * Security page only, until enrolled with a code computed from the key the page shows; then a code
 * or a recovery code after the passphrase; and the operator's reset when all is lost.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountWithCommand, postForm, runUserCommand } from "../setup/sanctum-client";
import { authenticator } from "../setup/authenticator";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

const EMAIL = "warden@dwell.example";
const PASSWORD = "a-long-warden-passphrase";

let server: ServerProcess;
let dataDir: string;
let secret = "";
let recoveryCodes: string[] = [];

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .filter((cookie) => !cookie.endsWith("="))
    .join("; ");
const get = (path: string, cookie: string) => fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
const app = authenticator(() => secret);
const unescape = (html: string) => html.replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');

async function passphraseStep(password = PASSWORD) {
  const response = await postForm(server.url, "/admin/sign-in", { email: EMAIL, password, next: "/admin" });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get("location"), cookie: cookiesOf(response) };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "dwell-2fa-"));
  server = await startServerProcess({ DATA_DIR: dataDir, REQUIRE_ADMIN_2FA: "true" });
  createAccountWithCommand(dataDir, EMAIL, PASSWORD, "admin");
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("two-factor sign-in", () => {
  it("is required: an admin without it reaches only the Security page, and enrols there", async () => {
    const first = await passphraseStep();
    expect(first).toMatchObject({ status: 302, location: "/admin" });
    let cookie = first.cookie;
    // A second session, as someone holding the passphrase alone would have.
    const other = (await passphraseStep()).cookie;
    expect((await get("/admin/security", other)).status).toBe(200);
    for (const path of ["/admin", "/admin/events", "/admin/applications"]) {
      const response = await get(path, cookie);
      await response.body?.cancel();
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toBe("/admin/security?required");
    }
    const security = await (await get("/admin/security?required", cookie)).text();
    expect(security).toContain("Your role signs in with a second key on this site.");

    const wrongPassword = await postForm(server.url, "/admin/security", { intent: "enable", password: "not-the-passphrase" }, { Cookie: cookie });
    expect(wrongPassword.status).toBe(400);
    expect(await wrongPassword.text()).toContain("That passphrase is not right.");

    const enrol = await postForm(server.url, "/admin/security", { intent: "enable", password: PASSWORD }, { Cookie: cookie });
    expect(enrol.status).toBe(200);
    const page = await enrol.text();
    secret = (/data-testid="totp-secret"[^>]*>([^<]+)</.exec(page)?.[1] ?? "").replaceAll(" ", "");
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
    expect(page).toMatch(/<svg role="img" aria-label="QR code of your authenticator key"[^>]*><path d="M/);
    recoveryCodes = [...(/<ol aria-label="Recovery codes"[^>]*>(.*?)<\/ol>/.exec(page)?.[1] ?? "").matchAll(/<li[^>]*>([^<]+)<\/li>/g)].map((m) => m[1]!);
    expect(recoveryCodes).toHaveLength(10);
    const totpUri = unescape(/name="totpUri" value="([^"]+)"/.exec(page)![1]!);
    expect(totpUri).toContain(`secret=${secret}`);
    expect(totpUri).toContain("issuer=Dwell");

    const wrong = await postForm(server.url, "/admin/security", { intent: "confirm", totpUri, code: "000000" }, { Cookie: cookie });
    expect(wrong.status).toBe(400);
    const again = await wrong.text();
    expect(again).toContain("That code is not right.");
    // The key is still there to try again.
    expect(again).toContain(secret.slice(0, 4));

    const confirmed = await postForm(server.url, "/admin/security", { intent: "confirm", totpUri, code: await app.fresh() }, { Cookie: cookie });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("Two-factor sign-in is on.");
    cookie = cookiesOf(confirmed);
    const dashboard = await get("/admin", cookie);
    expect(dashboard.status).toBe(200);
    // The other session ended with it.
    const shutOut = await get("/admin/security", other);
    await shutOut.body?.cancel();
    expect(shutOut.status).not.toBe(200);
    expect(await dashboard.text()).toMatch(/Welcome, (<!-- -->)?warden/);
  });

  it("asks for a code after the passphrase, and lets in only with a right one", async () => {
    const step = await passphraseStep();
    expect(step.status).toBe(302);
    expect(step.location).toBe("/admin/two-factor?next=%2Fadmin");
    // The passphrase alone opens nothing.
    const sanctum = await get("/admin", step.cookie);
    expect(sanctum.status).toBe(401);
    await sanctum.body?.cancel();
    expect((await get("/admin/two-factor?next=%2Fadmin", step.cookie)).status).toBe(200);

    const wrong = await postForm(server.url, "/admin/two-factor", { code: "123456", next: "/admin" }, { Cookie: step.cookie });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("That code is not right.");
    const right = await postForm(server.url, "/admin/two-factor", { code: await app.fresh(), next: "/admin" }, { Cookie: step.cookie });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/admin");
    expect((await get("/admin", cookiesOf(right))).status).toBe(200);
  });

  // Each code once: the test may wait for the authenticator's next step (30 s).
  it("takes an authenticator code once: again, or an earlier one, is refused", { timeout: 100_000 }, async () => {
    const code = await app.fresh();
    const first = await passphraseStep();
    const used = await postForm(server.url, "/admin/two-factor", { code, next: "/admin" }, { Cookie: first.cookie });
    expect(used.status).toBe(302);
    await used.body?.cancel();
    // Seen over a shoulder, or taken by a phishing page with the passphrase: the same code, a moment later.
    for (const replay of [code, app.codeOf(app.lastStep() - 1)]) {
      const again = await passphraseStep();
      const refused = await postForm(server.url, "/admin/two-factor", { code: replay, next: "/admin" }, { Cookie: again.cookie });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("That code is not right.");
      expect(refused.headers.getSetCookie().some((cookie) => /session_token=[^;]/.test(cookie))).toBe(false);
    }
    // The next code works.
    const later = await passphraseStep();
    const next = await postForm(server.url, "/admin/two-factor", { code: await app.fresh(), next: "/admin" }, { Cookie: later.cookie });
    expect(next.status).toBe(302);
    await next.body?.cancel();
  });

  it("takes a recovery code once", async () => {
    const recovery = recoveryCodes[0]!;
    const step = await passphraseStep();
    const used = await postForm(server.url, "/admin/two-factor", { code: recovery, next: "/admin" }, { Cookie: step.cookie });
    expect(used.status).toBe(302);
    expect((await get("/admin", cookiesOf(used))).status).toBe(200);

    const again = await passphraseStep();
    const reused = await postForm(server.url, "/admin/two-factor", { code: recovery, next: "/admin" }, { Cookie: again.cookie });
    expect(reused.status).toBe(400);
    await reused.body?.cancel();
  });

  it("is not a page anyone can use without the passphrase first", async () => {
    const response = await get("/admin/two-factor", "");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin");
    // A code without the passphrase step: turned back to the sign-in, and no session.
    const guess = await postForm(server.url, "/admin/two-factor", { code: app.codeOf(Math.floor(Date.now() / 30_000)), next: "/admin" });
    await guess.body?.cancel();
    expect(guess.status).toBe(302);
    expect(guess.headers.get("location")).toBe("/admin");
    expect(guess.headers.getSetCookie().some((cookie) => cookie.includes("session_token=") && !cookie.includes("session_token=;"))).toBe(false);
  });

  it("is reset by the operator: sessions end, the passphrase alone signs in, and enrolment is asked again", async () => {
    const step = await passphraseStep();
    const signedIn = await postForm(server.url, "/admin/two-factor", { code: recoveryCodes[1]!, next: "/admin" }, { Cookie: step.cookie });
    const cookie = cookiesOf(signedIn);
    expect((await get("/admin", cookie)).status).toBe(200);

    const reset = runUserCommand(dataDir, ["reset-2fa", "--email", EMAIL]);
    expect(reset.status).toBe(0);
    expect(reset.stdout).toContain(`Two-factor sign-in is off for ${EMAIL}`);
    const ended = await get("/admin", cookie);
    expect(ended.status).toBe(401);
    await ended.body?.cancel();

    const after = await passphraseStep();
    expect(after).toMatchObject({ status: 302, location: "/admin" });
    const required = await get("/admin", after.cookie);
    expect(required.headers.get("location")).toBe("/admin/security?required");
    expect(runUserCommand(dataDir, ["reset-2fa", "--email", "nobody@dwell.example"]).stderr).toContain("No account has the email nobody@dwell.example.");
  });
});
