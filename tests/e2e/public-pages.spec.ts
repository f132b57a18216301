import { expect, test, type Page } from "@playwright/test";
import { hydrated } from "./hydrated";

async function openEvent(page: Page, title: string) {
  await page.goto("/events");
  await page.getByRole("link", { name: new RegExp(title) }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // Its tabs are the page's script (the link may have loaded the page whole, before it ran).
  await hydrated(page);
}

test.describe("home", () => {
  test("shows the featured event, its buttons, the calendar, upcoming events and the call to action", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Dwellers");
    await expect(page.getByText("The Gathering at the Threshold").first()).toBeVisible();
    // The featured event requires an application.
    const apply = page.getByRole("link", { name: "Apply to Event" });
    await expect(apply).toHaveAttribute("href", /\/events\/[0-9a-f-]{36}\/apply$/);
    await expect(page.getByRole("link", { name: "View All Events" })).toHaveAttribute("href", "/events");
    await expect(page.getByRole("link", { name: "Event Details" })).toHaveCount(0);

    await expect(page.getByRole("heading", { name: "EVENT CALENDAR" })).toBeVisible();
    await expect(page.getByText("Select a Date")).toBeVisible();
    await expect(page.getByText("Click on the calendar to view events")).toBeVisible();

    const upcoming = page.locator("section", { has: page.getByRole("heading", { name: "All Upcoming Events" }) });
    await expect(upcoming.getByRole("link")).toHaveCount(3);

    await expect(page.locator("#vrchat-stats")).toHaveCount(1);
    await expect(page.getByRole("heading", { name: "Are You Ready to Become a Dweller?" })).toBeVisible();
    const discord = page.getByRole("link", { name: "Join Our Discord" });
    await expect(discord).toHaveAttribute("href", "https://discord.gg/dwellers");
    await expect(discord).toHaveAttribute("target", "_blank");
    await expect(discord).toHaveAttribute("rel", "noopener noreferrer");
  });

  test("the calendar lists a day's events, says when a day has none, and refuses past days", async ({ page }) => {
    await page.goto("/");
    // The calendar is the page's script: a press before it runs does nothing.
    await hydrated(page);
    const calendar = page.locator(".dwell-calendar");
    // Event days are marked. The demo's events fall within the next weeks: this month or the next.
    const eventDays = calendar.locator("td.dwell-has-event:not([data-disabled]) button");
    if ((await eventDays.count()) === 0) await calendar.getByRole("button", { name: /next month/i }).click();
    await eventDays.first().click();
    await expect(page.getByRole("link", { name: /The Gathering at the Threshold|Winter Solstice Ball|Starlight Open Mic/ }).last()).toBeVisible();

    // A future day with nothing on it (the month after shows whole future weeks).
    await calendar.getByRole("button", { name: /next month/i }).click();
    const quietDay = calendar
      .locator("td:not(.dwell-has-event):not([data-disabled]) button")
      .last();
    await quietDay.click();
    await expect(page.getByText("No Events Scheduled")).toBeVisible();
    await expect(page.getByText("Check another date on the calendar")).toBeVisible();
    await calendar.getByRole("button", { name: /previous month/i }).click();

    // Days before today are disabled.
    const disabled = calendar.locator("td[data-disabled] button").first();
    if ((await disabled.count()) > 0) await expect(disabled).toBeDisabled();
  });

  test("the calendar is worked with the keyboard, and never goes before today", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const calendar = page.locator(".dwell-calendar");
    const caption = calendar.locator("p[aria-live]");
    const month = await caption.textContent();
    const today = calendar.getByRole("button", { name: /^Today, / });
    await expect(calendar.getByRole("button", { name: /previous month/i })).toBeDisabled();

    // The grid has one tab stop: today, until a day is chosen.
    await today.focus();
    await expect(calendar.locator('button[tabindex="0"]')).toHaveCount(1);
    await page.keyboard.press("ArrowLeft");
    await expect(today).toBeFocused();
    await page.keyboard.press("ArrowRight");
    const tomorrow = page.locator(":focus");
    await expect(tomorrow).not.toHaveAccessibleName(/^Today, /);
    await expect(tomorrow).toHaveAttribute("tabindex", "0");

    // Page Down turns the month and keeps the focus on a day of it; Page Up comes back.
    const shown = await caption.textContent();
    await page.keyboard.press("PageDown");
    await expect(caption).not.toHaveText(shown!);
    await expect(page.locator(".dwell-calendar td[data-day] button:focus")).toHaveCount(1);
    await page.keyboard.press("PageUp");
    await expect(caption).toHaveText(shown!);

    // Back to today (on the last day of a month, that turns the month back too); Enter chooses it.
    await page.keyboard.press("ArrowLeft");
    await expect(caption).toHaveText(month!);
    await expect(today).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(today).toHaveAccessibleName(/, selected$/);
    await expect(page.getByText("Click on the calendar to view events")).toBeHidden();
  });

  test("the featured event's time shows in its zone and in the viewer's", async ({ page }) => {
    await page.goto("/");
    const featured = page.locator("section").first();
    // The demo featured event is at 8:00 PM Eastern; the browser here is in New York too.
    await expect(featured.getByText(/8:00 PM E[SD]T/).first()).toBeVisible();
  });
});

test.describe("events list", () => {
  test("splits upcoming and past events and badges them", async ({ page }) => {
    await page.goto("/events");
    await expect(page.getByRole("heading", { level: 1, name: "The Prophecies" })).toBeVisible();
    const upcoming = page.locator("section", { has: page.getByRole("heading", { name: "Prophesied Meetings" }) });
    const past = page.locator("section", { has: page.getByRole("heading", { name: "Past Events" }) });
    // The demo's events (other tests may add their own meanwhile).
    for (const title of ["The Gathering at the Threshold", "Winter Solstice Ball", "Starlight Open Mic", "Moonlit Meditation Circle", "Cosmic Dance Night"]) {
      await expect(upcoming.getByRole("link", { name: new RegExp(title) })).toHaveCount(1);
    }
    for (const title of ["Equinox Masquerade", "First Light Social"]) {
      await expect(past.getByRole("link", { name: new RegExp(title) })).toHaveCount(1);
    }
    const gathering = upcoming.getByRole("link", { name: /The Gathering at the Threshold/ });
    await expect(gathering.getByText("Application Required")).toBeVisible();
    await expect(gathering.getByText("40 Max")).toBeVisible();
    await expect(gathering.getByText("The Black Cat")).toBeVisible();
    // Three columns on a large screen for more than two upcoming events.
    await expect(upcoming.locator(".grid")).toHaveClass(/lg:grid-cols-3/);
  });

  test("a card opens its event", async ({ page }) => {
    await openEvent(page, "Starlight Open Mic");
    await expect(page).toHaveURL(/\/events\/[0-9a-f-]{36}$/);
  });
});

test.describe("event detail", () => {
  test("an open application offers Apply Now and its details", async ({ page }) => {
    await openEvent(page, "The Gathering at the Threshold");
    await expect(page.getByRole("link", { name: "Back to Prophecies" })).toHaveAttribute("href", "/events");
    await expect(page.getByText("Application Required").first()).toBeVisible();
    await expect(page.getByText("Max 40 Dwellers")).toBeVisible();
    await expect(page.getByRole("link", { name: "Apply Now" })).toHaveAttribute("href", /\/apply$/);
    await expect(page.getByRole("heading", { name: "When" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "World" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "About This Event" })).toBeVisible();
    await expect(page.getByText("Upcoming", { exact: true })).toBeVisible();
    await expect(page.getByText("EST", { exact: false }).first()).toBeVisible();

    await page.getByRole("tab", { name: "Application Info" }).click();
    await expect(page.getByText("Application Deadline")).toBeVisible();
    await expect(page.getByText(/at 11:59 PM E[SD]T/).first()).toBeVisible();
    await expect(page.getByText("Maximum Attendees")).toBeVisible();
    await expect(page.getByRole("link", { name: "Submit Your Application" })).toBeVisible();
  });

  test("a passed deadline closes applications", async ({ page }) => {
    await openEvent(page, "Winter Solstice Ball");
    await expect(page.getByRole("status")).toHaveText("Application deadline has passed");
    await expect(page.getByRole("link", { name: "Apply Now" })).toHaveCount(0);
    await page.getByRole("tab", { name: "Application Info" }).click();
    await expect(page.getByRole("tabpanel").getByText("Application deadline has passed")).toBeVisible();
    await expect(page.getByRole("link", { name: "Submit Your Application" })).toHaveCount(0);
  });

  test("a past event is completed", async ({ page }) => {
    await openEvent(page, "Equinox Masquerade");
    await expect(page.getByText("Past Event")).toBeVisible();
    await expect(page.getByRole("status")).toHaveText("This event has already occurred");
    await expect(page.getByText("Completed")).toBeVisible();
    await expect(page.getByRole("link", { name: "Apply Now" })).toHaveCount(0);
  });

  test("an event without applications has no application tab", async ({ page }) => {
    await openEvent(page, "Starlight Open Mic");
    await expect(page.getByRole("tab", { name: "Application Info" })).toHaveCount(0);
    await expect(page.getByRole("status")).toHaveCount(0);
  });

  test("an unknown or malformed id is a 404 with the spec's message", async ({ page }) => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-an-id", "%27%3B--"]) {
      const response = await page.goto(`/events/${id}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByText("Event not found or could not be loaded")).toBeVisible();
    }
  });
});

test.describe("navigation and errors", () => {
  test("the active link is highlighted", async ({ page }) => {
    await page.goto("/events");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "The Prophecies" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "The Calling" })).not.toHaveAttribute("aria-current", "page");
  });

  test("on a small screen the menu opens and closes when a link is chosen", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await hydrated(page);
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.locator("#site-menu")).toBeHidden();
    await toggle.click();
    await expect(page.locator("#site-menu")).toBeVisible();
    await page.locator("#site-menu").getByRole("link", { name: "The Prophecies" }).click();
    await expect(page).toHaveURL(/\/events$/);
    await expect(page.locator("#site-menu")).toBeHidden();
  });

  test("an unknown page is a 404 that logs its path", async ({ page }) => {
    const messages: string[] = [];
    page.on("console", (message) => messages.push(message.text()));
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("404", { exact: true })).toBeVisible();
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(messages.some((text) => text.includes("/no/such/page"))).toBe(true);
  });

  test("every page has the footer", async ({ page }) => {
    for (const path of ["/", "/events", "/nowhere"]) {
      await page.goto(path);
      await expect(page.getByRole("contentinfo")).toContainText("Custom-made for the Dwellers community by its creator");
    }
  });
});
