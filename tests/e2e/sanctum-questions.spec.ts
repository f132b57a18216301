import { expect, test, type Page } from "@playwright/test";
import { createAccount } from "./accounts";
import { liftAndMoveUp } from "./reorder";

const ADMIN = { email: "scribe@dwell.example", password: "moonlight-scribe" };

test.beforeAll(() => createAccount(ADMIN.email, ADMIN.password, "admin", "Scribe"));

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
}

test("an admin edits an event's questions: add each type, edit, reorder by keyboard, delete", async ({ page }) => {
  // Tall enough that the list does not scroll while an item is moved (dnd-kit measures once).
  await page.setViewportSize({ width: 1280, height: 1800 });
  await signIn(page, "/admin/events");
  await page.getByRole("link", { name: "Edit Questions of Moonlit Meditation Circle" }).click();
  await expect(page.getByRole("heading", { name: "Application Questions" })).toBeVisible();
  await expect(page.getByText("Moonlit Meditation Circle")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Current Questions (4)" })).toBeVisible();

  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await expect(add.getByRole("button", { name: "Add Question" })).toBeDisabled();
  await expect(add.getByRole("switch", { name: "Required" })).toBeChecked();

  // Multiple Choice starts with one empty option; empty ones are dropped on save.
  await add.getByLabel("Question", { exact: true }).fill("Which moon phase?");
  await add.getByLabel("Question Type").selectOption("Multiple Choice");
  await expect(add.getByLabel("Option 1", { exact: true })).toHaveValue("");
  await add.getByLabel("Option 1", { exact: true }).fill("Waxing");
  await add.getByRole("button", { name: "Add Option" }).click();
  await add.getByRole("button", { name: "Add Option" }).click();
  await add.getByLabel("Option 2", { exact: true }).fill("Waning");
  await add.getByRole("switch", { name: "Required" }).click();
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (5)" })).toBeVisible();
  const row = page.getByRole("listitem").filter({ hasText: "Which moon phase?" });
  await expect(row.getByText("Multiple Choice")).toBeVisible();
  await expect(row.getByText("Required")).toHaveCount(0);
  await expect(row.getByRole("listitem")).toHaveText(["Waxing", "Waning"]);
  // The form was reset for the next question.
  await expect(add.getByLabel("Question", { exact: true })).toHaveValue("");

  // Edit inline.
  await row.getByRole("button", { name: "Edit: Which moon phase?" }).click();
  const edit = page.locator("form", { has: page.getByRole("button", { name: "Save" }) });
  await expect(edit.getByLabel("Question", { exact: true })).toHaveValue("Which moon phase?");
  await edit.getByLabel("Question", { exact: true }).fill("Which phase of the moon?");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.locator("ol > li").filter({ hasText: "Which phase of the moon?" })).toBeVisible();

  // Move the new last question to the top with the keyboard alone.
  // Up until it is over the first question, with presses to spare.
  await liftAndMoveUp(page, page.getByRole("button", { name: /^Reorder: Which phase of the moon\?/ }), 8);
  const saved = page.waitForResponse(
    (response) => response.request().method() === "POST" && (response.request().postData() ?? "").includes("intent=reorder"),
  );
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: /^Reorder: / }).first()).toHaveAccessibleName(/Which phase of the moon\?/);
  expect((await saved).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("button", { name: /^Reorder: / }).first()).toHaveAccessibleName(/Which phase of the moon\? \(position 1\)/);

  // Delete it, through the confirmation.
  await page.getByRole("button", { name: "Delete: Which phase of the moon?" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Are you sure you want to delete this question? This action cannot be undone.");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (4)" })).toBeVisible();
});

test("the group's questions have the same editor, and the form follows them", async ({ page }) => {
  await signIn(page, "/admin/questions");
  await expect(page.getByRole("heading", { name: "Ritual Questions" })).toBeVisible();
  const question = `What brings you here, traveller ${Date.now()}?`;
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await add.getByLabel("Question", { exact: true }).fill(question);
  await add.getByLabel("Question Type").selectOption("Long Text");
  // Optional, and removed again below: other tests fill in the group form meanwhile.
  await add.getByRole("switch", { name: "Required" }).click();
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.locator("ol > li").filter({ hasText: question })).toBeVisible();

  await page.goto("/apply");
  await expect(page.getByLabel(question)).toHaveJSProperty("tagName", "TEXTAREA");

  await page.goto("/admin/questions");
  await page.getByRole("button", { name: `Delete: ${question}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.locator("ol > li").filter({ hasText: question })).toHaveCount(0);
});
