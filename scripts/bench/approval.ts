/**
 * Part 7: one approval as staff make it, in Chromium, against the VRChat fake: from the click on
 * 'Approve' in the list (the decision links the one join request with the name; no card is opened)
 * to the card saying 'Join request accepted in VRChat'. Then a bulk approval of 20 from the list:
 * how long until VRChat has accepted them all, and the smallest gap between two accepts (the pace).
 */
import { chromium } from "playwright-core";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat } from "../../tests/fakes/vrchat.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../tests/setup/chromium.ts";
import { figure, type Figure } from "./report.ts";
import { startSite } from "./site.ts";

const ADMIN = { email: "bench-approver@dwell.example", password: "moonlight-bench-approver" };

async function applyToGroup(url: string, fields: string[], name: string) {
  const answers = [name, `${name.replaceAll(" ", "").toLowerCase()}-d`, "A friend", "Hello", ""];
  const response = await fetch(`${url}/apply`, {
    method: "POST",
    body: new URLSearchParams(fields.map((field, i) => [field, answers[i] ?? ""])),
    headers: { Origin: url },
  });
  await response.body?.cancel();
  if (response.status !== 200) throw new Error(`applying answered ${response.status}`);
}

export async function measureApproval({ runs }: { runs: number }): Promise<Figure[]> {
  const fake = await startFakeVRChat();
  const names = Array.from({ length: runs }, (_, i) => `Single Moth ${String(i).padStart(2, "0")}`);
  const bulk = Array.from({ length: 20 }, (_, i) => `Bulk Moth ${String(i).padStart(2, "0")}`);
  [...names, ...bulk].forEach((displayName, i) => fake.group.people.push({ id: fakeUserId(500 + i), displayName, status: "requested" }));
  const site = await startSite({ kind: "pglite", env: { ...fakeVRChatEnv(fake), VRCHAT_MEMBERSHIP_ACTIONS: "true", RATE_LIMIT_APPLICATIONS: "1000" } });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    site.createAdmin(ADMIN.email, ADMIN.password);
    const form = await (await fetch(`${site.url}/apply`)).text();
    const fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    for (const name of [...names, ...bulk]) await applyToGroup(site.url, fields, name);

    const page = await browser.newPage();
    await page.goto(`${site.url}/admin/applications`);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Enter Sanctum" }).click();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

    const times: number[] = [];
    for (const name of names) {
      const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: name });
      const opened = performance.now();
      await card.getByRole("button", { name: "Approve" }).click();
      await card.getByText("Join request accepted in VRChat").first().waitFor({ timeout: 60_000 });
      times.push(performance.now() - opened);
    }

    // The bulk approval from the list: no card opened; the decision links each one.
    for (const name of bulk) {
      const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: name });
      await card.getByRole("checkbox", { name: `Select ${name}` }).check();
    }
    const before = fake.actions.length;
    const started = Date.now();
    await page.getByRole("button", { name: "Approve selected" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: /^Approve \d+ applications?$/ }).click();
    while (fake.actions.length < before + bulk.length) {
      if (Date.now() - started > 120_000) throw new Error("the bulk approval did not finish in 2 minutes");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const accepts = fake.actions.slice(before);
    const gaps = accepts.slice(1).map((action, i) => action.at - accepts[i]!.at);
    return [
      figure("7", "One approval: 'Approve' in the list to 'Join request accepted in VRChat'", "ms", times, {
        goal: { op: "<", value: 10_000, text: "< 10 s" },
      }),
      figure("7", "Bulk approval of 20: until VRChat accepted all", "s", [(accepts.at(-1)!.at - started) / 1000], {
        note: "two calls a job, about one a second",
      }),
      figure("7", "Bulk approval of 20: smallest gap between two accepts", "ms", [Math.min(...gaps)], {
        goal: { op: ">=", value: 1_000, text: "≥ 1 s (about one call a second)" },
      }),
    ];
  } finally {
    await browser.close();
    await site.close();
    await fake.close();
  }
}
