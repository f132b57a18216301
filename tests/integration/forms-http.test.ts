/**
 * Forms that fit every group, over HTTP against the production server, as a browser without
 * JavaScript (or a crafted post) meets them: an owner adds a question of each new type and one that
 * follows an answer; the editor refuses rules that contradict themselves; the public form shows
 * every question with its condition in words; each type's mistake is refused with a message naming
 * the question and the other answers kept; a hidden question's answer is never kept; the card and
 * the CSV show what the applicant saw; the applicant edits an answer from their status page (the
 * card's history says so, Telegram hears it once), until the application is decided or the owner
 * switches editing off.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGoogleSheets } from "../fakes/google-sheets";
import { startFakeTelegram } from "../fakes/telegram";
import { createAccountWithCommand, postForm, signIn, type FormValues } from "../setup/sanctum-client";
import { HOOK_TIMEOUT_MS, startServerProcess, type ServerProcess } from "../setup/server-process";

const OWNER = { email: "formkeeper@dwell.example", password: "moonlight-formkeeper" };

let server: ServerProcess;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let sheets: Awaited<ReturnType<typeof startFakeGoogleSheets>>;
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const clientEmail = "dwell@dwell-forms.iam.gserviceaccount.com";
let dataDir: string;
let cookie: string;
/** The group form's fields in order, by question text. */
let field: Record<string, string>;

const admin = (path: string, values: FormValues) => postForm(server.url, path, values, { Cookie: cookie });
const page = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${server.url}${path}`, { headers })).text();

/** The form's fields, by the question each belongs to (its label or legend). */
async function fieldsOfApply(): Promise<Record<string, string>> {
  const html = await page("/apply");
  const found: Record<string, string> = {};
  for (const match of html.matchAll(/(?:<label[^>]*for="question-([0-9a-f-]{36})"[^>]*>|<fieldset[^>]*id="question-([0-9a-f-]{36})"[^>]*><legend[^>]*>)([^<]+)/g)) {
    found[match[3]!.trim()] = `answer.${match[1] ?? match[2]}`;
  }
  return found;
}

async function addQuestion(values: FormValues) {
  const response = await admin("/admin/questions", values);
  return { status: response.status, text: await response.text() };
}

const unique = () => Math.random().toString(36).slice(2, 8);

function answers(name: string, extra: [string, string][] = []): [string, string][] {
  return [
    [field["What is your VRChat username?"]!, name],
    [field["What is your Discord username?"]!, `${name.toLowerCase().replaceAll(" ", "")}-d`],
    [field["How did you find the Dwellers?"]!, "A friend"],
    [field["Tell us about yourself"]!, "I listen."],
    [field["Do you perform?"]!, "No"],
    [field["How many guests?"]!, "2"],
    [field["Which night suits you?"]!, "2026-12-05"],
    [field["Our rules"]!, "agreed"],
    ...extra,
  ];
}

const apply = (values: [string, string][]) => fetch(`${server.url}/apply`, { method: "POST", body: new URLSearchParams(values), redirect: "manual" });

beforeAll(async () => {
  telegram = await startFakeTelegram();
  sheets = await startFakeGoogleSheets({ publicKey, clientEmail, spreadsheetId: "forms-sheet" });
  dataDir = mkdtempSync(join(tmpdir(), "dwell-forms-"));
  const keyFile = join(dataDir, "service-account.json");
  writeFileSync(keyFile, JSON.stringify({ client_email: clientEmail, private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), token_uri: sheets.tokenUri }));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    RATE_LIMIT_APPLICATIONS: "1000",
    RATE_LIMIT_DUPLICATES: "1000",
    TELEGRAM_BOT_TOKEN: "123:test-token",
    TELEGRAM_CHAT_ID: "-1001",
    TELEGRAM_API_URL: telegram.url,
    GOOGLE_SHEETS_ID: "forms-sheet",
    GOOGLE_SERVICE_ACCOUNT_FILE: keyFile,
    GOOGLE_SHEETS_API_URL: sheets.url,
  });
  createAccountWithCommand(dataDir, OWNER.email, OWNER.password, "owner");
  cookie = await signIn(server.url, OWNER.email, OWNER.password);
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await server?.stop();
  await telegram?.close();
  await sheets?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a form with every type, built in the Sanctum", () => {
  it("takes each type's rules and one question that follows an answer, and refuses rules that contradict themselves", async () => {
    const added = [
      await addQuestion({ intent: "add", question: "Do you perform?", questionType: "yes_no", required: "on" }),
    ];
    const perform = (await fieldsOfApply())["Do you perform?"]!.slice("answer.".length);
    added.push(
      await addQuestion([["intent", "add"], ["question", "What do you perform?"], ["questionType", "checkboxes"], ["required", "on"], ["options", "Music"], ["options", "Dance"], ["options", "Poetry"], ["maxChoices", "2"], ["showIfQuestion", perform], ["showIfWhen", "is"], ["showIfValues", "Yes"]]),
      await addQuestion({ intent: "add", question: "How many guests?", questionType: "number", required: "on", min: "0", max: "3", wholeNumber: "on" }),
      await addQuestion({ intent: "add", question: "Which night suits you?", questionType: "date", required: "on", earliest: "2026-12-01", latest: "2026-12-31" }),
      await addQuestion({ intent: "add", question: "Our rules", questionType: "agreement", statement: "I will keep the rules at https://dwell.example/rules." }),
      await addQuestion({ intent: "add", question: "Your website", questionType: "link", helpText: "A page about you, if you have one." }),
    );
    expect(added.map((one) => one.status)).toEqual([200, 200, 200, 200, 200, 200]);

    const refused = [
      await addQuestion({ intent: "add", question: "Bad range", questionType: "number", min: "5", max: "1" }),
      await addQuestion([["intent", "add"], ["question", "Twice"], ["questionType", "checkboxes"], ["options", "A"], ["options", "A"]]),
      await addQuestion({ intent: "add", question: "Bad day", questionType: "date", earliest: "2026-02-30" }),
      await addQuestion([["intent", "add"], ["question", "Loose"], ["showIfQuestion", perform], ["showIfWhen", "is"], ["showIfValues", "Maybe"]]),
    ];
    expect(refused.map((one) => one.status)).toEqual([400, 400, 400, 400]);
    expect(refused[0]!.text).toContain("The minimum (5) is above the maximum (1)");
    // The editor says it in a toast: the message travels in the page's data, its quotes escaped.
    expect(refused[1]!.text).toMatch(/Each option must differ: \W+A\W+ is there twice/);
    expect(refused[2]!.text).toContain("Earliest date must be a date that exists, like 2026-03-01");
    expect(refused[3]!.text).toMatch(/\W+Maybe\W+ is not an answer to \W+Do you perform\?\W+\./);
    field = await fieldsOfApply();
    expect(Object.keys(field)).toEqual([
      "What is your VRChat username?",
      "What is your Discord username?",
      "How did you find the Dwellers?",
      "Tell us about yourself",
      "Anything else we should know?",
      "Do you perform?",
      "What do you perform?",
      "How many guests?",
      "Which night suits you?",
      "Our rules",
      "Your website",
    ]);
  });

  it("shows, without JavaScript, every question: the one that follows an answer says so in words, the agreement its statement with its link", async () => {
    const html = await page("/apply");
    expect(html).toContain("Answer only if your answer to &quot;Do you perform?&quot; is &quot;Yes&quot;.");
    expect(html).toContain('<a href="https://dwell.example/rules" target="_blank" rel="noopener noreferrer"');
    expect(html).toContain("A page about you, if you have one.");
    expect(html).toMatch(/<input[^>]*type="date"[^>]*min="2026-12-01"[^>]*max="2026-12-31"/);
  });

  it.each([
    ["a number that is not one", "How many guests?", "1e309", 'Your answer to &quot;How many guests?&quot; must be a number, like 3 or 2.5.'],
    ["a number past the maximum", "How many guests?", "4", 'Your answer to &quot;How many guests?&quot; must be at most 3.'],
    ["a date that does not exist", "Which night suits you?", "2026-02-30", 'Your answer to &quot;Which night suits you?&quot; must be a date that exists, like 2026-03-01.'],
    ["a date before the earliest", "Which night suits you?", "2026-11-30", 'Your answer to &quot;Which night suits you?&quot; must be on Dec 1, 2026 or later.'],
    ["an agreement not ticked", "Our rules", "", "To apply, please agree: Our rules"],
    ["a link that is not a web address", "Your website", "javascript:alert(1)", 'Your answer to &quot;Your website&quot; must be a web address starting with https:// or http://.'],
    ["a Yes / No answered otherwise", "Do you perform?", "Perhaps", 'Please answer &quot;Do you perform?&quot; with Yes or No.'],
  ])("refuses %s with a message naming the question, keeping the other answers", async (_name, question, value, message) => {
    const name = `Mistake ${unique()}`;
    const values = answers(name).filter(([key]) => key !== field[question]);
    const response = await apply([...values, [field[question]!, value]]);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(message);
    expect(html).toContain(`value="${name}"`);
  });

  it("refuses forty ticks where two are allowed, and a choice that is not an option", async () => {
    const many = Array.from({ length: 40 }, (): [string, string] => [field["What do you perform?"]!, "Music"]);
    const perform: [string, string][] = [[field["Do you perform?"]!, "Yes"]];
    const base = answers(`Ticks ${unique()}`).filter(([key]) => key !== field["Do you perform?"]);
    const forty = await apply([...base, ...perform, ...many]);
    expect(forty.status).toBe(400);
    expect(await forty.text()).toContain("Please choose among the options for &quot;What do you perform?&quot;.");
    const three = await apply([...base, ...perform, ...["Music", "Dance", "Poetry"].map((one): [string, string] => [field["What do you perform?"]!, one])]);
    expect(three.status).toBe(400);
    expect(await three.text()).toContain("Please choose at most 2 for &quot;What do you perform?&quot;.");
  });
});

describe("what is kept, and what staff read", () => {
  let token: string;
  const name = `Quiet Lark ${unique()}`;

  it("keeps no answer to a hidden question, even when a crafted post sends one; the card and the CSV show what the applicant saw", async () => {
    const response = await apply(answers(name, [[field["What do you perform?"]!, "Music"]]));
    expect(response.status).toBe(200);
    token = /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(await response.text())![1]!;
    const list = await page(`/admin/applications?q=${encodeURIComponent(name)}`, { Cookie: cookie });
    // The card as drawn: from its name to the end of its responses (the page's data comes later).
    const card = list.slice(list.indexOf('aria-label="Applications"'), list.indexOf("</details>", list.indexOf("Application Responses")));
    expect(card).toContain("Do you perform?");
    expect(card).not.toContain("What do you perform?");
    expect(card).toContain("Dec 5, 2026");
    expect(card).toContain("I will keep the rules at https://dwell.example/rules.");
    const csv = await page("/admin/applications/export", { Cookie: cookie });
    const header = csv.split("\r\n")[0]!;
    expect(header).toContain('"Do you perform?","What do you perform?","How many guests?","Which night suits you?","Our rules","Your website"');
    const row = csv.split("\r\n").find((line) => line.startsWith(`"${name}"`))!;
    expect(row).toContain('"No","","2","2026-12-05","Agreed",""');
    // The Sheets row: the questions shown, each with its answer, and nothing of the hidden one.
    await expect.poll(() => sheets.requests.find((append) => append.values[0]?.[3] === name)?.values[0]?.slice(5), { timeout: 20_000 }).toEqual([
      `What is your VRChat username?: ${name}`,
      `What is your Discord username?: ${name.toLowerCase().replaceAll(" ", "")}-d`,
      "How did you find the Dwellers?: A friend",
      "Tell us about yourself: I listen.",
      "Anything else we should know?: —",
      "Do you perform?: No",
      "How many guests?: 2",
      "Which night suits you?: 2026-12-05",
      "Our rules: Agreed",
      "Your website: —",
    ]);
  });

  it("lets the applicant edit an answer from their status page: recorded on the card, heard once in Telegram", async () => {
    const status = await page(`/applications/status/${token}`);
    expect(status).toContain(`href="/applications/status/${token}/edit"`);
    const form = await page(`/applications/status/${token}/edit`);
    expect(form).toContain(`value="${name}"`);
    expect(form).toMatch(/value="2026-12-05"/);
    const before = telegram.requests.length;
    const edit = await fetch(`${server.url}/applications/status/${token}/edit`, {
      method: "POST",
      body: new URLSearchParams(answers(name).map(([key, value]) => [key, key === field["How many guests?"] ? "3" : value])),
      redirect: "manual",
    });
    expect(edit.status).toBe(302);
    expect(edit.headers.get("location")).toBe(`/applications/status/${token}?edited=yes`);
    expect(await page(`/applications/status/${token}?edited=yes`)).toContain("Your answers are saved. The admins see the change.");
    const list = await page(`/admin/applications?q=${encodeURIComponent(name)}`, { Cookie: cookie });
    expect(list).toContain("Edited by the applicant");
    expect(list).toMatch(/Before<\/dt><dd[^>]*>How many guests\?: 2<\/dd><dt[^>]*>After<\/dt><dd[^>]*>How many guests\?: 3</);
    await expect.poll(() => telegram.requests.slice(before).map((one) => one.shownText.split("\n")[0]), { timeout: 20_000 }).toEqual(["Application edited"]);
    await expect
      .poll(() => sheets.requests.filter((append) => append.values[0]?.[3] === name).map((append) => [append.values[0]![1], append.values[0]!.find((cell) => cell.startsWith("How many guests?"))]), { timeout: 20_000 })
      .toEqual([
        ["Group application", "How many guests?: 2"],
        ["Group application (edited)", "How many guests?: 3"],
      ]);
    // The same answers again change nothing, and nobody is told.
    const again = await fetch(`${server.url}/applications/status/${token}/edit`, {
      method: "POST",
      body: new URLSearchParams(answers(name).map(([key, value]) => [key, key === field["How many guests?"] ? "3" : value])),
      redirect: "manual",
    });
    expect(again.headers.get("location")).toBe(`/applications/status/${token}?edited=none`);
  });

  it("refuses an edit that breaks a rule, with its message, and keeps the answers as they were", async () => {
    const edit = await fetch(`${server.url}/applications/status/${token}/edit`, {
      method: "POST",
      body: new URLSearchParams(answers(name).map(([key, value]) => [key, key === field["How many guests?"] ? "9" : value])),
      redirect: "manual",
    });
    expect(edit.status).toBe(400);
    expect(await edit.text()).toContain("Your answer to &quot;How many guests?&quot; must be at most 3.");
    expect(await page(`/applications/status/${token}/edit`)).toMatch(/name="[^"]+" value="3"|value="3"[^>]*name=/);
  });

  it("says a decided application cannot be edited, and refuses an edit of it", async () => {
    const list = await page(`/admin/applications?q=${encodeURIComponent(name)}`, { Cookie: cookie });
    // Searched by name, the list holds this one card.
    const id = /name="id" value="([0-9a-f-]{36})"/.exec(list)?.[1];
    expect(id).toBeDefined();
    const decided = await admin("/admin/applications", { intent: "status", id: id!, status: "approved" });
    expect(decided.status).toBe(200);
    expect(await page(`/applications/status/${token}`)).toContain("This application has been decided, so its answers can no longer be changed.");
    const edit = await fetch(`${server.url}/applications/status/${token}/edit`, { method: "POST", body: new URLSearchParams(answers(name)), redirect: "manual" });
    expect(edit.status).toBe(409);
    expect(await edit.text()).toContain("This application has been decided, so its answers can no longer be changed.");
  });

  it("lets the owner switch editing off for the form", async () => {
    const other = `Switch Wren ${unique()}`;
    const response = await apply(answers(other));
    const otherToken = /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(await response.text())![1]!;
    expect((await admin("/admin/questions", { intent: "applicant-edits" })).status).toBe(200);
    expect(await page(`/applications/status/${otherToken}`)).not.toContain("/edit");
    expect(await page(`/applications/status/${otherToken}/edit`)).toContain("The admins have switched off editing for this form: its answers cannot be changed after sending.");
    expect((await admin("/admin/questions", { intent: "applicant-edits", applicantEdits: "on" })).status).toBe(200);
    expect(await page(`/applications/status/${otherToken}`)).toContain(`/applications/status/${otherToken}/edit`);
  });
});
