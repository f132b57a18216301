/**
 * The site as an operator deploys it (README, "Behind a reverse proxy"): Dwell with PUBLIC_URL and
 * TRUST_PROXY behind real nginx and Caddy terminating TLS with a local certificate, used in Chromium
 * at https://dwell.test:PORT. Each proxy gets its own site, in its own worker.
 */
import { createServer, type Server } from "node:http";
import { HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expect, test, type Page } from "@playwright/test";
import { TEST_CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from "../setup/chromium";
import { startProxiedSite, TEST_HOST, type ProxiedSite } from "../setup/reverse-proxy";
import { hydrated } from "./hydrated";

const ADMIN = { email: "keeper@dwell.example", password: "moonlight-keeper" };

test.use({
  // The certificate is the test's own; Chromium is told where dwell.test lives.
  ignoreHTTPSErrors: true,
  launchOptions: { executablePath: TEST_CHROMIUM_PATH, args: [...TEST_CHROMIUM_FLAGS, `--host-resolver-rules=MAP ${TEST_HOST} 127.0.0.1`] },
});

/** Another website, whose page posts a form to Dwell. */
function startForeignSite(target: string): Promise<{ url: string; server: Server }> {
  const page = `<!doctype html><title>Elsewhere</title><form method="post" action="${target}/apply"><input name="answer.x" value="spam"><button>Send</button></form>`;
  const server = createServer((_, response) => response.writeHead(200, { "Content-Type": "text/html" }).end(page));
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })));
}

async function signIn(page: Page, origin: string) {
  await page.goto(`${origin}/admin`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(page.getByText(/Welcome, /)).toBeVisible();
}

for (const kind of ["nginx", "caddy"] as const) {
  test.describe(`behind ${kind} over https`, () => {
    test.describe.configure({ mode: "serial" });
    let site: ProxiedSite;
    const applicant = `Heron-${kind}-${Date.now().toString(36)}`;

    test.beforeAll(async () => {
      // Starting a server of its own: see HOOK_TIMEOUT_MS.
      test.setTimeout(HOOK_TIMEOUT_MS);
      site = await startProxiedSite(kind, ADMIN);
    });
    test.afterAll(async () => {
      await site?.stop();
    });

    test("a visitor applies to the group and to an event", async ({ page }) => {
      await page.goto(`${site.origin}/apply`);
      await page.getByLabel("What is your VRChat username?").fill(applicant);
      await page.getByLabel("What is your Discord username?").fill(`${applicant}-discord`);
      await page.getByLabel("How did you find the Dwellers?").selectOption("A friend");
      await page.getByLabel("Tell us about yourself").fill("I came through the proxy.");
      await page.getByRole("button", { name: "Complete the Ritual" }).click();
      await expect(page.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();

      await page.goto(`${site.origin}/events`);
      await page.getByRole("link", { name: /The Gathering at the Threshold/ }).first().click();
      await page.getByRole("link", { name: "Apply Now" }).click();
      await page.getByLabel("What is your VRChat username?").fill(applicant);
      await page.getByLabel("What is your Discord username?").fill(`${applicant}-discord`);
      await page.getByLabel("Why do you wish to attend?").fill("To listen.");
      await page.getByRole("button", { name: "Submit Application" }).click();
      await expect(page.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
      expect(page.url().startsWith(site.origin)).toBe(true);
    });

    test("an admin signs in with a Secure cookie, approves, and signs out", async ({ page, context }) => {
      await signIn(page, site.origin);
      const session = (await context.cookies(site.origin)).find((cookie) => cookie.name.endsWith("dwell.session_token"));
      expect(session).toMatchObject({ name: "__Secure-dwell.session_token", secure: true, httpOnly: true, domain: TEST_HOST });

      await page.getByRole("link", { name: /Ritual Applications/ }).first().click();
      await expect(page.getByRole("heading", { name: "Ritual Applications" })).toBeVisible();
      await hydrated(page);
      await page.getByPlaceholder("Search by VRChat username or Discord ID...").fill(applicant);
      // As a person does: the list follows the search (its address too) before they act on it.
      await expect(page).toHaveURL(new RegExp(`[?&]q=${applicant}`));
      const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem");
      await expect(card).toHaveCount(1);
      await card.getByRole("button", { name: "Approve" }).click();
      await expect(card.getByText("Approved", { exact: true })).toBeVisible();
      await expect(page.getByText("Total Applications").locator("..")).toContainText("1");

      await page.getByRole("link", { name: "Dashboard" }).click();
      await page.getByRole("button", { name: "Sign Out" }).click();
      await expect(page.getByRole("heading", { name: "Enter the Sanctum" })).toBeVisible();
      expect((await context.cookies(site.origin)).some((cookie) => cookie.name.endsWith("dwell.session_token"))).toBe(false);
      await page.goto(`${site.origin}/admin/applications`);
      await expect(page.getByRole("heading", { name: "Enter the Sanctum" })).toBeVisible();
    });

    test("a form posted from another site is refused", async ({ page }) => {
      const foreign = await startForeignSite(site.origin);
      try {
        await page.goto(foreign.url);
        await page.getByRole("button", { name: "Send" }).click();
        await expect(page.getByText("This form must be sent from the site itself.")).toBeVisible();
        expect(site.server.output()).toContain('"msg":"refused a form posted from another site"');
      } finally {
        foreign.server.close();
      }
    });
  });
}
