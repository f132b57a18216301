/**
 * A repeating event as people meet it in Chromium: an admin makes a weekly series on the event form
 * ('Repeats', 'Number of events'); visitors find its next events on /events, on each event's page
 * (how it repeats, links to the next ones) and in the iCal feed; the admin changes 'this and the
 * following events' from the third on. On a narrow and a wide screen, with axe.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ICAL from "ical.js";
import { expect, test } from "@playwright/test";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess, HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";

const ADMIN = { email: "hearthkeeper@dwell.example", password: "moonlight-hearthkeeper" };
const DAY = 24 * 60 * 60 * 1000;
const FIRST = new Date(Date.now() + 4 * DAY).toISOString().slice(0, 10);
const dateAfter = (weeks: number) => new Date(Date.parse(`${FIRST}T12:00:00Z`) + weeks * 7 * DAY).toISOString().slice(0, 10);
const WEEKDAY = new Date(`${FIRST}T12:00:00Z`).toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" });
const shortDate = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-series-"));
  server = await startServerProcess({ DATA_DIR: dataDir, DEMO_CONTENT: "false", RATE_LIMIT_SIGN_IN: "1000" });
  createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
});
test.afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

test("a weekly series: made on the form, found by visitors, changed from one event on", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/admin/events`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await page.getByRole("link", { name: "Create New Prophecy" }).click();
  await hydrated(page);

  await page.getByLabel("Title").fill("Fireside Tales");
  await page.getByLabel("Event Date").fill(FIRST);
  await page.getByLabel("Event Time").fill("20:00");
  await page.getByLabel("World Name").fill("Hearth Hall");
  // The series' end shows only once it repeats.
  await expect(page.getByLabel("Number of events")).toBeHidden();
  await page.getByLabel("Repeats").selectOption({ label: "Weekly" });
  await expect(page.getByLabel("Number of events")).toBeVisible();

  // Repeats that never end are refused, with the form kept as it was.
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  await expect(page.getByRole("alert")).toHaveText("A repeating event must end: give the date of its last event, or the number of events.");
  await expect(page.getByLabel("Title")).toHaveValue("Fireside Tales");

  await page.getByLabel("Number of events").fill("6");
  await expectNoSeriousViolations(page, "the event form with 'Repeats'");
  await page.screenshot({ path: "test-results/event-series-form-narrow.png", fullPage: true });
  await page.getByRole("button", { name: "Create Prophecy" }).click();

  // Six weeks are within the eight made ahead: six cards, each saying where it stands in the series.
  const cards = page.getByRole("article", { name: "Fireside Tales" });
  await expect(cards).toHaveCount(6);
  await expect(cards.nth(0).getByTestId("event-series")).toHaveText(`Weekly on ${WEEKDAY} · event 1 of 6`);
  await expect(cards.nth(5).getByTestId("event-series")).toHaveText(`Weekly on ${WEEKDAY} · event 6 of 6`);

  // A visitor finds them on /events, and from one event's page the next ones.
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
    const context = await browser.newContext({ viewport });
    const visitor = await context.newPage();
    await visitor.goto(`${server.url}/events`);
    await expect(visitor.getByRole("link", { name: /Fireside Tales/ })).toHaveCount(6);
    await visitor.getByRole("link", { name: /Fireside Tales/ }).first().click();
    const series = visitor.getByTestId("event-series");
    await expect(series).toContainText(`Weekly on ${WEEKDAY}`);
    await expect(series).toContainText(`Next: ${shortDate(dateAfter(1))} · ${shortDate(dateAfter(2))} · ${shortDate(dateAfter(3))}`);
    await expectNoSeriousViolations(visitor, `an event of a series at ${viewport.width} px`);
    await visitor.screenshot({ path: `test-results/event-series-event-${viewport.width}.png`, fullPage: true });
    await series.getByRole("link", { name: shortDate(dateAfter(1)) }).click();
    await expect(visitor.getByTestId("event-series")).toContainText(`Next: ${shortDate(dateAfter(2))}`);
    await context.close();
  }

  // The iCal feed carries each event of the series.
  const feed = new ICAL.Component(ICAL.parse(await (await page.request.get(`${server.url}/events.ics`)).text()));
  const starts = feed
    .getAllSubcomponents("vevent")
    .map((vevent) => new ICAL.Event(vevent))
    .filter((event) => event.summary === "Fireside Tales")
    .map((event) => event.startDate.toJSDate().toISOString());
  expect(starts).toEqual([0, 1, 2, 3, 4, 5].map((weeks) => `${dateAfter(weeks)}T20:00:00.000Z`));

  // From the third on: renamed, the first two as they were.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole("link", { name: "Edit Event Fireside Tales" }).nth(2).click();
  await hydrated(page);
  await expect(page.getByRole("group", { name: "Save changes to" })).toBeVisible();
  await page.getByLabel("Title").fill("Fireside Tales by Moonlight");
  await page.getByLabel("This and the following events").check();
  await expectNoSeriousViolations(page, "an event of a series, being edited");
  await page.screenshot({ path: "test-results/event-series-edit-wide.png", fullPage: true });
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("article", { name: "Fireside Tales by Moonlight" })).toHaveCount(4);
  await expect(page.getByRole("article", { name: "Fireside Tales", exact: true })).toHaveCount(2);

  // 'Delete this and the following events' from the fifth: the series ends at the fourth.
  await page.getByRole("article", { name: "Fireside Tales by Moonlight" }).nth(2).getByRole("button", { name: "Delete Fireside Tales by Moonlight" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("ends the series here");
  await dialog.getByRole("button", { name: "Delete this and the following events" }).click();
  await expect(page.getByRole("article", { name: "Fireside Tales by Moonlight" })).toHaveCount(2);
  await expect(page.getByRole("article", { name: "Fireside Tales by Moonlight" }).nth(1).getByTestId("event-series")).toHaveText(`Weekly on ${WEEKDAY} · event 4 of 4`);
});
