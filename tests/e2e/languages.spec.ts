/**
 * The site in Japanese as a Japanese visitor meets it, in Chromium whose language is Japanese, on
 * a site offering English and Japanese: the home page in Japanese (lang="ja", axe clean) at a
 * phone's and a desktop's width, then English chosen from the footer, kept across pages and visits.
 * A staff member who chose Japanese works through the Sanctum in Japanese while another works in
 * English, and the applicant reads the decision in the language they applied in. Screenshots of the
 * Japanese home page, form and Sanctum dashboard are attached to the test report.
 */
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startOwnSite, type OwnSite } from "./own-site";

let site: OwnSite;

test.beforeAll(async () => {
  site = await startOwnSite({ email: "gengo@dwell.example", password: "kotoba-no-mori" }, { SITE_LANGUAGES: "en,ja" });
});
test.afterAll(async () => {
  await site?.stop();
});

test.use({ locale: "ja-JP", timezoneId: "Asia/Tokyo" });

function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

/** Signs in from a Japanese browser's sign-in screen (in Japanese), into a Sanctum in the site's default language until chosen. */
async function signInFromJapaneseBrowser(page: Page, email: string, password: string) {
  await page.goto(`${site.url}/admin`);
  await hydrated(page);
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード").fill(password);
  await page.getByRole("button", { name: "Sanctumに入る" }).click();
  await expect(page.getByRole("heading", { name: "Cosmic Status" })).toBeVisible();
  return page;
}

for (const width of [390, 1280]) {
  test(`a Japanese browser reads the home page in Japanese at ${width} px`, async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${site.url}/`);
    await hydrated(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "ja");
    await expect(page.getByRole("heading", { name: "これからのイベント" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "イベントカレンダー" })).toBeVisible();
    await expect(page.getByText("日付を選んでください")).toBeVisible();
    // Dates the Japanese way, in the event's own zone.
    await expect(page.getByText("2026年").first()).toBeVisible();
    await expect(page.getByRole("link", { name: "イベントに申し込む" })).toBeVisible();
    await expect(page.getByText("All Upcoming Events")).toHaveCount(0);
    await expectNoSeriousViolations(page, `the Japanese home page at ${width} px`);
    await testInfo.attach(`home-ja-${width}.png`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
    expect(errors).toEqual([]);
  });
}

test("a Japanese browser reads the events and an event's page in Japanese", async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`${site.url}/events`);
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: "予言" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "予言された集い" })).toBeVisible();
  await expect(page.getByRole("link", { name: "カレンダーに登録" })).toBeVisible();
  await expectNoSeriousViolations(page, "the Japanese events page");
  await page.getByRole("link", { name: /The Gathering at the Threshold/ }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "The Gathering at the Threshold" })).toBeVisible();
  await expect(page.getByRole("link", { name: "予言に戻る" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "このイベントについて" })).toBeVisible();
  await expect(page.getByText("申し込み制")).toBeVisible();
  await page.getByRole("tab", { name: "申し込みについて" }).click();
  await expect(page.getByText("申し込み締め切り")).toBeVisible();
  await expectNoSeriousViolations(page, "a Japanese event page");
  expect(errors).toEqual([]);
});

test("a Japanese browser applies in Japanese: a mistake, its message, the ritual completes, and the status page", async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await page.goto(`${site.url}/apply`);
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: "入会の儀式" })).toBeVisible();
  const submit = page.getByRole("button", { name: "儀式を完了する" });
  await submit.click();
  // The questions are the group's own words; the message around them is Japanese.
  await expect(page.getByRole("alert")).toHaveText("回答してください: What is your VRChat username?");
  await page.getByLabel("What is your VRChat username?").fill(`Tsuki-${Date.now().toString(36)}`);
  await page.getByLabel("What is your Discord username?").fill("tsuki");
  await page.getByLabel("How did you find the Dwellers?").selectOption("An event");
  await page.getByLabel("Tell us about yourself").fill("月の夜が好きです。");
  await expectNoSeriousViolations(page, "the Japanese form");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await testInfo.attach(`apply-ja-${width}.png`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  }
  await submit.click();
  await expect(page.getByRole("heading", { name: "儀式は完了しました" })).toBeVisible();
  await expect(page.getByText("申し込みを送りました！")).toBeVisible();
  await page.getByRole("link", { name: "申し込みの状況を見る" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "The Dwellers への参加" })).toBeVisible();
  await expect(page.getByTestId("application-status")).toHaveText("審査待ち");
  await expect(page.getByText("あなたの申し込みは管理者の確認を待っています。")).toBeVisible();
  await expectNoSeriousViolations(page, "the Japanese status page");
  // An answer fixed from the status page, in Japanese too.
  await page.getByRole("link", { name: "回答を編集する" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "回答を編集する" })).toBeVisible();
  await page.getByLabel("Tell us about yourself").fill("月の夜と、静かなワールドが好きです。");
  await page.getByRole("button", { name: "回答を保存する" }).click();
  await expect(page.getByTestId("edit-notice")).toHaveText("回答を保存しました。変更は管理者に伝わります。");
  expect(errors).toEqual([]);
});

test("English chosen from the footer stays across pages and visits", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`${site.url}/events`);
  await hydrated(page);
  await expect(page.locator("html")).toHaveAttribute("lang", "ja");
  const footer = page.locator("footer");
  await footer.getByLabel("言語").selectOption("en");
  await footer.getByRole("button", { name: "切り替える" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page).toHaveURL(`${site.url}/events`);
  await expect(footer.getByLabel("Language")).toHaveValue("en");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "The Calling" }).click();
  await expect(page.getByRole("heading", { name: "All Upcoming Events" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  // Another visit, the browser still Japanese: the choice holds.
  await page.goto(`${site.url}/`);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { name: "All Upcoming Events" })).toBeVisible();

  // And back to Japanese, without a script (the menu is a plain form).
  const context = await page.context().browser()!.newContext({ locale: "en-US", javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto(`${site.url}/events`);
  await expect(plain.locator("html")).toHaveAttribute("lang", "en");
  await plain.locator("footer").getByLabel("Language").selectOption("ja");
  await plain.locator("footer").getByRole("button", { name: "Change" }).click();
  await expect(plain.locator("html")).toHaveAttribute("lang", "ja");
  await expect(plain).toHaveURL(`${site.url}/events`);
  await context.close();
  expect(errors).toEqual([]);
});

test("a staff member who chose Japanese decides in Japanese while another works in English, and the applicant reads the decision in Japanese", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  // The applicant applies in Japanese.
  const name = `Hotaru-${Date.now().toString(36)}`;
  await page.goto(`${site.url}/apply`);
  await hydrated(page);
  await page.getByLabel("What is your VRChat username?").fill(name);
  await page.getByLabel("What is your Discord username?").fill("hotaru");
  await page.getByLabel("How did you find the Dwellers?").selectOption("An event");
  await page.getByLabel("Tell us about yourself").fill("蛍の光が好きです。");
  await page.getByRole("button", { name: "儀式を完了する" }).click();
  await page.getByRole("link", { name: "申し込みの状況を見る" }).click();
  await expect(page.getByTestId("application-status")).toHaveText("審査待ち");
  const statusUrl = page.url();

  // The owner signs in from a Japanese browser: the sign-in screen is Japanese, the Sanctum the site's default until they choose.
  const staff = await browser.newContext({ locale: "ja-JP", timezoneId: "Asia/Tokyo" });
  // (The sign-in screen itself answers 401: only what follows signing in is watched.)
  const owner = await signInFromJapaneseBrowser(await staff.newPage(), "gengo@dwell.example", "kotoba-no-mori");
  const ownerErrors = watchErrors(owner);
  await owner.getByRole("navigation", { name: "Sanctum" }).getByRole("link", { name: "Security" }).click();
  await owner.getByLabel("Language").selectOption("ja");
  await owner.getByRole("button", { name: "Save" }).click();
  await expect(owner.getByText("言語を保存しました。")).toBeVisible();
  await expect(owner.locator("html")).toHaveAttribute("lang", "ja");

  // Their dashboard, in Japanese, at a phone's and a desktop's width.
  await owner.getByRole("navigation", { name: "Sanctum" }).getByRole("link", { name: "ダッシュボード" }).click();
  await expect(owner.getByRole("heading", { name: "Cosmic Status（稼働状況）" })).toBeVisible();
  await expect(owner.getByText("システムの状態")).toBeVisible();
  for (const width of [390, 1280]) {
    await owner.setViewportSize({ width, height: 900 });
    await expectNoSeriousViolations(owner, `the Japanese Sanctum dashboard at ${width} px`);
    await testInfo.attach(`sanctum-dashboard-ja-${width}.png`, { body: await owner.screenshot({ fullPage: true }), contentType: "image/png" });
  }

  // They approve the application from the list, in Japanese.
  await owner.getByRole("navigation", { name: "Sanctum" }).getByRole("link", { name: "参加申請" }).click();
  await expect(owner.getByRole("heading", { level: 1, name: "参加申請" })).toBeVisible();
  const card = owner.getByRole("list", { name: "申請" }).getByRole("listitem").filter({ hasText: name });
  await card.getByRole("button", { name: "承認" }).click();
  await expect(card.getByText("承認", { exact: true }).first()).toBeVisible();
  await expectNoSeriousViolations(owner, "the Japanese review list");

  // Another admin, also on a Japanese browser, has chosen nothing: their Sanctum is in the site's default, English.
  createAccountWithCommand(site.dataDir, "rowan@dwell.example", "moonlight-over-the-rowan", "admin");
  const other = await browser.newContext({ locale: "ja-JP" });
  const rowan = await signInFromJapaneseBrowser(await other.newPage(), "rowan@dwell.example", "moonlight-over-the-rowan");
  await expect(rowan.getByText("System Status")).toBeVisible();
  await expect(rowan.locator("html")).toHaveAttribute("lang", "en");

  // The applicant reads the decision in Japanese.
  await page.goto(statusUrl);
  await expect(page.getByTestId("application-status")).toHaveText("承認");
  await expect(page.getByTestId("decision-message")).toContainText(`ようこそDwellersへ、${name}さん！`);
  await expect(page.getByTestId("message-language")).toHaveCount(0);
  await staff.close();
  await other.close();
  expect([...errors, ...ownerErrors]).toEqual([]);
});
