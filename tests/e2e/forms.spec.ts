/**
 * Forms that fit every group, as people meet them in Chromium: an owner builds a form with every new
 * type and two questions that follow the answers, and previews it; an applicant on a phone sees the
 * conditional questions appear and disappear, makes a mistake on each type and reads its message,
 * sends the form, then edits an answer from their status page; the card shows each answer as its
 * type means it, with the edit in its history, and the CSV holds what they saw.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess, HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";
import { liftAndMoveUp } from "./reorder";

const OWNER = { email: "formwright@dwell.example", password: "moonlight-formwright" };
const NAME = "Lantern Moth";

let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-forms-"));
  server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_SIGN_IN: "1000" });
  createAccountWithCommand(dataDir, OWNER.email, OWNER.password, "owner");
});
test.afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Adds a question from 'Add New Question', then waits for it in the list. */
async function addQuestion(page: Page, text: string, type: string, rules?: (form: Locator) => Promise<void>) {
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await add.getByLabel("Question", { exact: true }).fill(text);
  await add.getByLabel("Question Type").selectOption(type);
  await rules?.(add);
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.locator("ol > li").filter({ hasText: text })).toBeVisible();
  await expect(add.getByLabel("Question", { exact: true })).toHaveValue("");
}

/** The form's send, and the message it shows (the browser checks by the server's rules first). */
async function sendAndRead(page: Page, submit: string) {
  await page.getByRole("button", { name: submit }).click();
  return page.getByRole("alert").filter({ hasText: /\S/ }).first();
}

test("a form with every type: built, previewed, filled on a phone with its mistakes, sent, edited, and read by staff", async ({ page, browser }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/admin/questions`);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await hydrated(page);

  await addQuestion(page, "Do you perform?", "Yes / No");
  await addQuestion(page, "What do you perform?", "Checkboxes", async (add) => {
    await add.getByRole("textbox", { name: "Option 1" }).fill("Music");
    await add.getByRole("button", { name: "Add Option" }).click();
    await add.getByRole("textbox", { name: "Option 2" }).fill("Dance");
    await add.getByLabel("At most (optional)").fill("1");
    await add.getByLabel("Depends on").selectOption({ label: "Only when: Do you perform?" });
    await add.getByLabel("Its answer").selectOption("is one of");
    await add.getByRole("checkbox", { name: "Yes" }).check();
  });
  await addQuestion(page, "Which stage?", "Short Text", async (add) => {
    await add.getByLabel("Depends on").selectOption({ label: "Only when: What do you perform?" });
    await add.getByLabel("Its answer").selectOption("is one of");
    await add.getByRole("checkbox", { name: "Music" }).check();
  });
  await addQuestion(page, "How many guests?", "Number", async (add) => {
    await add.getByLabel("Minimum (optional)").fill("0");
    await add.getByLabel("Maximum (optional)").fill("3");
    await add.getByLabel("Whole numbers only").check();
  });
  await addQuestion(page, "Which night suits you?", "Date", async (add) => {
    await add.getByLabel("Earliest date (optional)").fill("2026-12-01");
  });
  await addQuestion(page, "Our rules", "Agreement", async (add) => {
    await add.getByLabel(/Statement to agree to/).fill("I will keep the rules at https://dwell.example/rules.");
  });
  await addQuestion(page, "Your website", "Link", async (add) => {
    await add.getByLabel("Help text (optional)").fill("A page about you, if you have one.");
    await add.getByRole("switch", { name: "Required" }).click();
  });
  const stage = page.locator("ol > li").filter({ hasText: "Which stage?" });
  await expect(stage.getByTestId("question-rules")).toHaveText('Shown when "What do you perform?" is "Music"');

  // Moving a question above the one it depends on is refused, and the order stays.
  // Anywhere above "What do you perform?" breaks the rule: up by one or more.
  await liftAndMoveUp(page, stage.getByRole("button", { name: /^Reorder: Which stage\?/ }), 3);
  const refused = page.waitForResponse((response) => response.request().method() === "POST" && (response.request().postData() ?? "").includes("intent=reorder"));
  await page.keyboard.press("Enter");
  expect((await refused).status()).toBe(409);
  await expect(page.getByText(/"Which stage\?" depends on the answer to "What do you perform\?"/).first()).toBeVisible();
  await expect(page.locator("ol > li").nth(7)).toContainText("Which stage?");

  // The preview: the conditions work, the rules hold, nothing is sent.
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("region", { name: "Preview of the form" });
  await expect(preview.getByRole("group", { name: "What do you perform?" })).toBeHidden();
  await preview.getByRole("radio", { name: "Yes" }).check();
  await expect(preview.getByRole("group", { name: "What do you perform?" })).toBeVisible();
  await expectNoSeriousViolations(page, "the question editor with its preview");
  await page.screenshot({ path: "test-results/forms-editor-wide.png", fullPage: true });
  await page.getByRole("button", { name: "Close the preview" }).click();

  // The applicant, on a phone.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.goto(`${server.url}/apply`);
  await hydrated(phone);
  const submit = "Complete the Ritual";
  await phone.getByLabel("What is your VRChat username?").fill(NAME);
  await phone.getByLabel("What is your Discord username?").fill("lanternmoth");
  await phone.getByLabel("How did you find the Dwellers?").selectOption("A friend");
  await phone.getByLabel("Tell us about yourself").fill("I light lanterns.");
  await expect(phone.getByRole("group", { name: "What do you perform?" })).toBeHidden();
  expect(await sendAndRead(phone, submit).then((alert) => alert.textContent())).toBe("Please answer: Do you perform?");
  await phone.getByRole("radio", { name: "Yes" }).check();
  await expect(phone.getByRole("group", { name: "What do you perform?" })).toBeVisible();
  await expect(phone.getByLabel("Which stage?")).toBeHidden();
  await phone.getByRole("checkbox", { name: "Music" }).check();
  await phone.getByRole("checkbox", { name: "Dance" }).check();
  await expect(phone.getByLabel("Which stage?")).toBeVisible();
  await expect(await sendAndRead(phone, submit)).toHaveText('Please choose at most 1 for "What do you perform?".');
  await phone.getByRole("checkbox", { name: "Music" }).uncheck();
  // Music unticked: the question that followed it goes again (and the chain with it when 'No').
  await expect(phone.getByLabel("Which stage?")).toBeHidden();
  await phone.getByRole("radio", { name: "No" }).check();
  await expect(phone.getByRole("group", { name: "What do you perform?" })).toBeHidden();
  await phone.getByRole("radio", { name: "Yes" }).check();
  await phone.getByLabel("How many guests?").fill("2.5");
  await expect(await sendAndRead(phone, submit)).toHaveText('Your answer to "How many guests?" must be a whole number.');
  await phone.getByLabel("How many guests?").fill("4");
  await expect(await sendAndRead(phone, submit)).toHaveText('Your answer to "How many guests?" must be at most 3.');
  await phone.getByLabel("How many guests?").fill("2");
  await phone.getByLabel("Which night suits you?").fill("2026-11-30");
  await expect(await sendAndRead(phone, submit)).toHaveText('Your answer to "Which night suits you?" must be on Dec 1, 2026 or later.');
  await phone.getByLabel("Which night suits you?").fill("2026-12-05");
  await expect(await sendAndRead(phone, submit)).toHaveText("To apply, please agree: Our rules");
  await phone.getByRole("checkbox", { name: "I agree" }).check();
  await phone.getByLabel("Your website").fill("javascript:alert(1)");
  await expect(await sendAndRead(phone, submit)).toHaveText('Your answer to "Your website" must be a web address starting with https:// or http://.');
  await phone.getByLabel("Your website").fill("https://lanterns.example/moth");
  await expectNoSeriousViolations(phone, "the application form with every type");
  await phone.screenshot({ path: "test-results/forms-apply-narrow.png", fullPage: true });
  await phone.getByRole("button", { name: submit }).click();
  await expect(phone.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();

  // The status page: 'Edit my answers', the same form with the answers, one changed.
  await phone.getByRole("link", { name: "Check your application status" }).click();
  await phone.getByRole("link", { name: "Edit my answers" }).click();
  await hydrated(phone);
  await expect(phone.getByLabel("How many guests?")).toHaveValue("2");
  await expect(phone.getByRole("checkbox", { name: "Dance" })).toBeChecked();
  await phone.getByLabel("How many guests?").fill("3");
  await phone.getByRole("button", { name: "Save my answers" }).click();
  await expect(phone.getByTestId("edit-notice")).toHaveText("Your answers are saved. The admins see the change.");
  await phone.close();

  // Staff read each answer as its type means it, and the edit in the history.
  await page.goto(`${server.url}/admin/applications`);
  await hydrated(page);
  const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: NAME });
  await card.getByText("Show responses").click();
  await expect(card.getByText("Dec 5, 2026")).toBeVisible();
  await expect(card.getByRole("listitem").filter({ hasText: "Dance" })).toBeVisible();
  await expect(card.getByText("I will keep the rules at https://dwell.example/rules.")).toBeVisible();
  const link = card.getByRole("link", { name: "https://lanterns.example/moth" });
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  await expect(card.getByText("Which stage?")).toHaveCount(0);
  await expect(card.getByText(/Edited by the applicant/)).toBeVisible();
  await expect(card.getByTestId("answers-edit")).toContainText("How many guests?: 2");
  await expect(card.getByTestId("answers-edit")).toContainText("How many guests?: 3");
  await page.screenshot({ path: "test-results/forms-card-wide.png", fullPage: true });

  // 'Answer to … is …' filters the list, kept in the address.
  await page.getByLabel("Answer", { exact: true }).selectOption({ label: 'Answer to "Do you perform?" is "No"' });
  await expect(page).toHaveURL(/answer=/);
  await expect(page.getByText("0 applications match")).toBeVisible();
  await page.getByLabel("Answer", { exact: true }).selectOption({ label: 'Answer to "What do you perform?" is "Dance"' });
  await expect(page.getByText("1 application matches")).toBeVisible();
  await expect(card).toBeVisible();

  const csv = await page.request.get(`${server.url}/admin/applications/export`).then((response) => response.text());
  const header = csv.split("\r\n")[0]!;
  expect(header).toContain('"Do you perform?","What do you perform?","Which stage?","How many guests?","Which night suits you?","Our rules","Your website"');
  expect(csv.split("\r\n").find((line) => line.startsWith(`"${NAME}"`))).toContain('"Yes","Dance","","3","2026-12-05","Agreed","https://lanterns.example/moth"');
});
