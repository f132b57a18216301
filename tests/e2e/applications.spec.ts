import { expect, test, type Page } from "@playwright/test";
import { hydrated } from "./hydrated";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function openEventForm(page: Page, title: string) {
  await page.goto("/events");
  await page.getByRole("link", { name: new RegExp(title) }).first().click();
  await page.getByRole("link", { name: "Apply Now" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Apply for ${title}` })).toBeVisible();
}

test.describe("group application", () => {
  test("checks required answers in order, then completes the ritual", async ({ page }) => {
    const name = `Moth-${unique()}`;
    await page.goto("/apply");
    await expect(page.getByRole("heading", { level: 1, name: "The Ritual of Entry" })).toBeVisible();
    const submit = page.getByRole("button", { name: "Complete the Ritual" });

    await submit.click();
    await expect(page.getByRole("alert")).toHaveText("Please answer: What is your VRChat username?");
    await expect(page.getByLabel("What is your VRChat username?")).toBeFocused();

    await page.getByLabel("What is your VRChat username?").fill(name);
    await submit.click();
    await expect(page.getByRole("alert")).toHaveText("Please answer: What is your Discord username?");

    await page.getByLabel("What is your Discord username?").fill(name.toLowerCase());
    await page.getByLabel("How did you find the Dwellers?").selectOption("An event");
    await page.getByLabel("Tell us about yourself").fill("I wander quiet worlds.\nAnd I bring snacks.");
    await submit.click();

    await expect(page.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
    await expect(page.getByText("Application submitted successfully!")).toBeVisible();
  });

  test("a second application from the same person is refused", async ({ page }) => {
    const name = `Lark-${unique()}`;
    for (const attempt of [1, 2]) {
      await page.goto("/apply");
      await page.getByLabel("What is your VRChat username?").fill(attempt === 1 ? name : `  ${name.toUpperCase()} `);
      await page.getByLabel("What is your Discord username?").fill(`${name}-discord-${attempt}`);
      await page.getByLabel("How did you find the Dwellers?").selectOption("A friend");
      await page.getByLabel("Tell us about yourself").fill("Hello");
      await page.getByRole("button", { name: "Complete the Ritual" }).click();
      if (attempt === 1) await expect(page.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
    }
    await expect(page.getByRole("alert")).toHaveText("You have already submitted an application to join the group.");
    // What was typed is still there to correct.
    await expect(page.getByLabel("Tell us about yourself")).toHaveValue("Hello");
  });

  test("works with the keyboard alone", async ({ page }) => {
    const name = `Wren-${unique()}`;
    await page.goto("/apply");
    // Keys typed before the page hydrates can be lost as React takes the fields over.
    await hydrated(page);
    await page.getByLabel("What is your VRChat username?").focus();
    await page.keyboard.type(name);
    await page.keyboard.press("Tab");
    await page.keyboard.type(name);
    await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowDown"); // the select: first real option
    await page.keyboard.press("Tab");
    await page.keyboard.type("Typed without a mouse.");
    // Tab on past any optional questions to the button.
    const submit = page.getByRole("button", { name: "Complete the Ritual" });
    for (let i = 0; i < 10 && !(await submit.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press("Tab");
    }
    await expect(submit).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
  });
});

test.describe("event application", () => {
  test("renders each question type, submits, and confirms", async ({ page }) => {
    const name = `Finch-${unique()}`;
    await openEventForm(page, "The Gathering at the Threshold");
    await expect(page.getByRole("link", { name: "Back to Event" })).toHaveAttribute("href", /\/events\/[0-9a-f-]{36}$/);

    await expect(page.getByLabel("What is your VRChat username?")).toHaveJSProperty("tagName", "INPUT");
    await expect(page.getByLabel("Why do you wish to attend?")).toHaveJSProperty("tagName", "TEXTAREA");
    const select = page.getByLabel("Which part calls to you?");
    await expect(select).toHaveJSProperty("tagName", "SELECT");
    await expect(select.locator("option")).toHaveText(["Choose an option", "Listener", "Performer", "Helper"]);

    await page.getByLabel("What is your VRChat username?").fill(name);
    await page.getByLabel("What is your Discord username?").fill(name);
    await page.getByLabel("Why do you wish to attend?").fill("To listen.");
    await page.getByRole("button", { name: "Submit Application" }).click();

    await expect(page.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
    await expect(page.getByText("Event application submitted successfully!")).toBeVisible();
    await page.getByRole("link", { name: "Back to Event" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "The Gathering at the Threshold" })).toBeVisible();
  });

  test("the same person cannot apply twice to one event", async ({ page }) => {
    const name = `Heron-${unique()}`;
    for (const attempt of [1, 2]) {
      await openEventForm(page, "Moonlit Meditation Circle");
      await page.getByLabel("What is your VRChat username?").fill(name);
      await page.getByLabel("What is your Discord username?").fill(`${name}-${attempt}`);
      await page.getByLabel("Why do you wish to attend?").fill("Quiet.");
      await page.getByRole("button", { name: "Submit Application" }).click();
      if (attempt === 1) await expect(page.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
    }
    await expect(page.getByRole("alert")).toHaveText("You have already submitted an application for this event.");
  });

  test("a closed event shows why instead of a form", async ({ page }) => {
    await page.goto("/events");
    await page.getByRole("link", { name: /Winter Solstice Ball/ }).click();
    await expect(page).toHaveURL(/\/events\/[0-9a-f-]{36}$/);
    const eventUrl = page.url();
    await page.goto(`${eventUrl}/apply`);
    await expect(page.getByRole("status")).toHaveText("Application deadline has passed");
    await expect(page.getByRole("button", { name: "Submit Application" })).toHaveCount(0);
  });

  test("an unknown event's form is a 404", async ({ page }) => {
    const response = await page.goto("/events/00000000-0000-4000-8000-000000000000/apply");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Event not found or could not be loaded")).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the group form posts, reports the first missing answer, and completes", async ({ page }) => {
    const name = `Owl-${unique()}`;
    await page.goto("/apply");
    await page.getByLabel("What is your VRChat username?").fill(name);
    await page.getByRole("button", { name: "Complete the Ritual" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please answer: What is your Discord username?");
    // The server sent back what was typed.
    await expect(page.getByLabel("What is your VRChat username?")).toHaveValue(name);

    await page.getByLabel("What is your Discord username?").fill(name);
    await page.getByLabel("How did you find the Dwellers?").selectOption("Discord");
    await page.getByLabel("Tell us about yourself").fill("No scripts needed.");
    await page.getByRole("button", { name: "Complete the Ritual" }).click();
    await expect(page.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
  });

  test("an event application is withdrawn from its status page", async ({ page }) => {
    const name = `Wren-${unique()}`;
    await openEventForm(page, "The Gathering at the Threshold");
    await page.getByLabel("What is your VRChat username?").fill(name);
    await page.getByLabel("What is your Discord username?").fill(name);
    await page.getByLabel("Why do you wish to attend?").fill("To listen, without scripts.");
    await page.getByRole("button", { name: "Submit Application" }).click();
    await expect(page.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
    await page.getByRole("link", { name: "Check your application status" }).click();
    // Its forms post from a page that sends no referrer: the browser must still say they come from the site.
    await page.getByRole("button", { name: "Withdraw my application" }).click();
    await expect(page.getByRole("heading", { name: "Withdraw your application?" })).toBeVisible();
    await page.getByRole("button", { name: "Yes, withdraw" }).click();
    await expect(page.getByRole("button", { name: "Withdraw my application" })).toHaveCount(0);
  });
});
