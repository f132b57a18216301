/**
 * The site in the visitor's language, over HTTP as browsers and search engines reach it: with
 * SITE_LANGUAGES=en,ja a Japanese browser gets Japanese pages, a choice made in the footer is kept,
 * search engines get each language's address, and odd or hostile language hints are passed over.
 * Without SITE_LANGUAGES the site is English whatever the browser asks.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../setup/page-text";
import { cookieHeader, rawRequest } from "../setup/raw-http";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { runServerProcess, startServerProcess, type ServerProcess } from "../setup/server-process";

const JAPANESE_BROWSER = "ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7";
const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

async function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "dwell-languages-"));
  folders.push(dataDir);
  return { ...(await startServerProcess({ DATA_DIR: dataDir, ...env })), dataDir };
}

const langOf = (html: string) => /<html[^>]*\blang="([^"]+)"/.exec(html)?.[1];
/** The version of the browser code a page runs (its route manifest's). */
const codeVersionOf = (html: string) => /\/assets\/manifest-([\w-]+)\.js/.exec(html)?.[1];
const catalogue = (language: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../../messages/${language}.json`), "utf8")) as Record<string, unknown>;
/** English texts Japanese words differently, long enough to be nothing else, written as the bundle writes them. */
const englishOnly = (() => {
  const [en, ja] = [catalogue("en"), catalogue("ja")];
  return Object.entries(en)
    .filter(([key, text]) => typeof text === "string" && text.length >= 24 && !/[{}`\\$]/.test(text) && ja[key] !== text)
    .map(([, text]) => text as string);
})();
const KANA = /[\u3040-\u30ff]/;

describe("SITE_LANGUAGES=en,ja", () => {
  let server: ServerProcess & { dataDir: string };
  const get = (path: string, headers: Record<string, string> = {}) => rawRequest(`${server.url}${path}`, { headers });
  const choose = (values: Record<string, string>, headers: Record<string, string> = {}) =>
    rawRequest(`${server.url}/language`, {
      method: "POST",
      body: new URLSearchParams(values).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, ...headers },
    });

  beforeAll(async () => {
    server = await start({ SITE_LANGUAGES: "en,ja" });
  });
  afterAll(() => server?.stop());

  it("answers a Japanese browser in Japanese and an English one in English, even within the page cache's second", async () => {
    const [japanese, english, none] = await Promise.all([
      get("/", { "Accept-Language": JAPANESE_BROWSER }),
      get("/", { "Accept-Language": "en-GB,en;q=0.9" }),
      get("/"),
    ]);
    expect(japanese.status).toBe(200);
    expect(langOf(japanese.body)).toBe("ja");
    expect(textOf(japanese.body)).toContain("これからのイベント");
    expect(textOf(japanese.body)).toContain("本文へ移動");
    expect(textOf(japanese.body)).not.toContain("All Upcoming Events");
    expect(japanese.headers["content-language"]).toBe("ja");
    expect(String(japanese.headers.vary)).toContain("Accept-Language");

    expect(langOf(english.body)).toBe("en");
    expect(textOf(english.body)).toContain("All Upcoming Events");
    // No hint: the first of SITE_LANGUAGES.
    expect(langOf(none.body)).toBe("en");

    // The same page again, now from the cache: each still in its own language.
    const [again, againEnglish] = await Promise.all([get("/", { "Accept-Language": JAPANESE_BROWSER }), get("/")]);
    expect(langOf(again.body)).toBe("ja");
    expect(langOf(againEnglish.body)).toBe("en");
  });

  it("sends each page's browser code with its own language's texts alone, and answers that code's route requests in its language", async () => {
    const scriptsOf = async (html: string) => {
      const paths = [...new Set([...html.matchAll(/\/assets\/[\w.-]+\.js/g)].map(([path]) => path))];
      return (await Promise.all(paths.map(async (path) => (await get(path)).body))).join("\n");
    };
    const [japanese, english] = await Promise.all([get("/", { "Accept-Language": JAPANESE_BROWSER }), get("/")]);
    const [japaneseCode, englishCode] = await Promise.all([scriptsOf(japanese.body), scriptsOf(english.body)]);
    expect(japaneseCode).toContain("これからのイベント");
    expect(englishCode).toContain("All Upcoming Events");
    // The check can fail: the home page's English code has texts of the list.
    expect(englishOnly.filter((text) => englishCode.includes(text)).length).toBeGreaterThan(5);
    expect(englishOnly.filter((text) => japaneseCode.includes(text))).toEqual([]);
    expect(englishCode).not.toMatch(KANA);

    // React Router's browser asks for more routes as a visitor goes: answered for the code that
    // asks (by its version), whatever the cookie or the browser's language says.
    const japaneseVersion = codeVersionOf(japanese.body)!;
    expect(japaneseVersion).not.toBe(codeVersionOf(english.body));
    const routesFor = async (version: string) => {
      const answer = await get(`/__manifest?paths=${encodeURIComponent("/events,/apply")}&version=${version}`, { "Accept-Language": "en-US" });
      expect(answer.status).toBe(200);
      return Object.values(JSON.parse(answer.body) as Record<string, { module: string }>).map((route) => route.module).sort();
    };
    const modules = await routesFor(japaneseVersion);
    expect(modules).not.toEqual(await routesFor(codeVersionOf(english.body)!));
    // The routes' code with what it imports: Japanese texts, no English ones.
    const moduleCode = (await Promise.all(modules.map(async (path) => (await get(path)).body))).join("\n");
    const routeCode = `${moduleCode}\n${await scriptsOf(moduleCode.replaceAll('"./', '"/assets/'))}`;
    expect(routeCode).toMatch(KANA);
    expect(englishOnly.filter((text) => routeCode.includes(text))).toEqual([]);
    // An older build's code is told to load the page again, as React Router expects.
    expect((await get("/__manifest?paths=/events&version=0ld", { "Accept-Language": JAPANESE_BROWSER })).status).toBe(204);
  });

  it("gives search engines each language's address, and the page's preview text in its language", async () => {
    const page = (await get("/events", { "Accept-Language": JAPANESE_BROWSER })).body;
    const alternates = [...page.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/gi)].map(([, language, address]) => [language, address]);
    expect(alternates).toEqual([
      ["en", `${server.publicUrl}/events?lang=en`],
      ["ja", `${server.publicUrl}/events?lang=ja`],
      ["x-default", `${server.publicUrl}/events`],
    ]);
    const home = (await get("/?lang=ja")).body;
    expect(langOf(home)).toBe("ja");
    expect(home).toMatch(/<meta name="description" content="The Dwellers は VRChat のコミュニティです/);
  });

  it("keeps a choice made in the footer, over the browser's language, on every page", async () => {
    const home = (await get("/", { "Accept-Language": JAPANESE_BROWSER })).body;
    // The footer's menu: each language named in its own words.
    expect(home).toMatch(/<form[^>]*action="\/language"/);
    expect(textOf(home)).toMatch(/言語 English 日本語 切り替える/);

    const chosen = await choose({ language: "en", next: "/events?lang=ja" }, { "Accept-Language": JAPANESE_BROWSER });
    expect(chosen.status).toBe(303);
    // Back to the page, without the address's own language (which would outweigh the choice).
    expect(chosen.headers.location).toBe("/events");
    expect(String(chosen.headers["set-cookie"])).toMatch(/^lang=en; Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly/);
    const cookie = cookieHeader(chosen);
    for (const path of ["/", "/events", "/apply"]) {
      const page = await get(path, { Cookie: cookie, "Accept-Language": JAPANESE_BROWSER });
      expect(langOf(page.body), path).toBe("en");
    }
    const japanese = await get("/events", { Cookie: "lang=ja" });
    expect(langOf(japanese.body)).toBe("ja");
    expect(textOf(japanese.body)).toContain("予言");
  });

  it("refuses and takes an application in the visitor's language", async () => {
    const form = await get("/apply", { "Accept-Language": JAPANESE_BROWSER });
    expect(textOf(form.body)).toContain("入会の儀式");
    expect(textOf(form.body)).toContain("儀式を完了する");
    const fields = [...form.body.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((match) => match[1]!);
    const name = `Tsuki ${Math.random().toString(36).slice(2, 8)}`;
    const answers = [name, `${name}-discord`, "A friend", "こんにちは"];
    const post = (values: string[], language: string) =>
      rawRequest(`${server.url}/apply`, {
        method: "POST",
        body: new URLSearchParams(fields.map((field, i) => [field, values[i] ?? ""])).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, "Accept-Language": language },
      });

    // Without a script: the server's refusal, in Japanese, naming the question.
    const empty = await post([], JAPANESE_BROWSER);
    expect(empty.status).toBe(400);
    expect(textOf(empty.body)).toMatch(/回答してください: \S/);

    const taken = await post(answers, JAPANESE_BROWSER);
    expect(taken.status).toBe(200);
    expect(textOf(taken.body)).toContain("儀式は完了しました");
    expect(textOf(taken.body)).toContain("申し込みの状況を見る");

    const again = await post(answers, JAPANESE_BROWSER);
    expect(again.status).toBe(409);
    expect(textOf(again.body)).toContain("このグループへの参加はすでに申し込んでいます。");
    // The same refusal for an English browser, in English.
    const againInEnglish = await post(answers, "en-US");
    expect(textOf(againInEnglish.body)).toContain("You have already submitted an application to join the group.");
  });

  it("tells each applicant the decision in the language they applied in, and says when staff wrote it in another", async () => {
    const dataDir = server.dataDir;
    createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-keeper", "owner");
    const owner = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-keeper");
    const form = (await get("/apply", { "Accept-Language": JAPANESE_BROWSER })).body;
    const fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((match) => match[1]!);
    const apply = async (name: string) => {
      const taken = await rawRequest(`${server.url}/apply`, {
        method: "POST",
        body: new URLSearchParams(fields.map((field, i) => [field, [name, `${name}-discord`, "A friend", "こんにちは"][i] ?? ""])).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, "Accept-Language": JAPANESE_BROWSER },
      });
      expect(taken.status).toBe(200);
      return /\/applications\/status\/([A-Za-z0-9_-]{43})/.exec(taken.body)![1]!;
    };
    const suffix = Math.random().toString(36).slice(2, 8);
    const [welcomed, turned] = [`Hotaru ${suffix}`, `Kumo ${suffix}`];
    const tokens = { welcomed: await apply(welcomed), turned: await apply(turned) };

    // The staff write the refusal in English only (their main language), and decide both in the Sanctum.
    const saved = await postForm(server.url, "/admin/messages", { intent: "save", kind: "group", outcome: "rejected", language: "en", body: "Not this moon, {username}." }, { cookie: owner });
    expect(saved.status).toBe(200);
    const unknown = await postForm(server.url, "/admin/messages", { intent: "save", kind: "group", outcome: "rejected", language: "xx", body: "?" }, { cookie: owner });
    expect(unknown.status).toBe(400);
    const review = (await rawRequest(`${server.url}/admin/applications?status=all`, { headers: { cookie: owner } })).body;
    const idOf = (name: string) => /name="id" value="([0-9a-f-]{36})"/.exec(review.slice(review.indexOf(`>${name}<`)))![1]!;
    for (const [name, status] of [[welcomed, "approved"], [turned, "rejected"]] as const) {
      const decided = await postForm(server.url, "/admin/applications", { intent: "status", id: idOf(name), status }, { cookie: owner });
      expect(decided.status).toBe(200);
    }

    // Their own pages are in Japanese, even opened on a browser that prefers English.
    const status = (token: string, headers: Record<string, string> = {}) => get(`/applications/status/${token}`, headers);
    const moved = await status(tokens.welcomed, { "Accept-Language": "en-US" });
    expect(moved.status).toBe(302);
    expect(moved.headers.location).toBe(`/applications/status/${tokens.welcomed}?lang=ja`);
    const welcome = textOf((await get(`/applications/status/${tokens.welcomed}?lang=ja`)).body);
    expect(welcome).toContain(`ようこそDwellersへ、${welcomed}さん！`);
    expect(welcome).not.toContain("あなたの言語ではまだ書かれていない");
    const refusal = textOf((await status(tokens.turned, { "Accept-Language": JAPANESE_BROWSER })).body);
    expect(refusal).toContain(`Not this moon, ${turned}.`);
    expect(refusal).toContain("このメッセージはあなたの言語ではまだ書かれていないため、Englishで表示しています。");
    // A visitor who chose English in the menu keeps it.
    const chosen = await status(tokens.turned, { cookie: "lang=en" });
    expect(chosen.status).toBe(200);
    expect(langOf(chosen.body)).toBe("en");
    expect(textOf(chosen.body)).not.toContain("The hosts have not written this message in your language");
  });

  it("speaks to each staff member in the language they chose on the Security page", async () => {
    const dataDir = server.dataDir;
    createAccountWithCommand(dataDir, "kaede@dwell.example", "moonlight-over-the-kaede", "admin");
    createAccountWithCommand(dataDir, "rowan@dwell.example", "moonlight-over-the-rowan", "admin");
    // Before signing in, the sign-in screen is in the visitor's language.
    const signInScreen = await get("/admin", { "Accept-Language": JAPANESE_BROWSER });
    expect(textOf(signInScreen.body)).toContain("Sanctumに入る");
    const kaede = await signIn(server.url, "kaede@dwell.example", "moonlight-over-the-kaede");
    const rowan = await signIn(server.url, "rowan@dwell.example", "moonlight-over-the-rowan");

    // Signed in, the site's default until one chooses, whatever the browser says.
    const before = await get("/admin", { cookie: kaede, "Accept-Language": JAPANESE_BROWSER });
    expect(langOf(before.body)).toBe("en");
    expect(textOf(before.body)).toContain("Cosmic Status");

    const refused = await postForm(server.url, "/admin/security", { intent: "language", language: "xx" }, { cookie: kaede });
    expect(refused.status).toBe(400);
    const chosen = await postForm(server.url, "/admin/security", { intent: "language", language: "ja" }, { cookie: kaede });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get("location")).toBe("/admin/security?saved=language");

    // Kaede's Sanctum is Japanese (even from an English browser); Rowan's stays English.
    const [japanese, english] = await Promise.all([
      get("/admin", { cookie: kaede, "Accept-Language": "en-US" }),
      get("/admin", { cookie: rowan, "Accept-Language": JAPANESE_BROWSER }),
    ]);
    expect(langOf(japanese.body)).toBe("ja");
    // With the code of the Japanese pages, chosen once the session is read.
    expect(codeVersionOf(japanese.body)).toBe(codeVersionOf((await get("/", { "Accept-Language": JAPANESE_BROWSER })).body));
    expect(codeVersionOf(english.body)).toBe(codeVersionOf((await get("/")).body));
    expect(textOf(japanese.body)).toContain("ようこそ、kaedeさん");
    expect(textOf(japanese.body)).toContain("システムの状態");
    expect(textOf(japanese.body)).not.toContain("System Status");
    expect(langOf(english.body)).toBe("en");
    expect(textOf(english.body)).toContain("Cosmic Status");
    const security = await get("/admin/security?saved=language", { cookie: kaede });
    expect(textOf(security.body)).toContain("言語を保存しました。");
    // The public pages still follow the browser and the menu, not the Sanctum's choice.
    expect(langOf((await get("/events", { cookie: kaede, "Accept-Language": "en-US" })).body)).toBe("en");

    // The export's fixed columns too (the questions stay as written).
    const exported = (await get("/admin/applications/export", { cookie: kaede })).body;
    expect(exported.split("\r\n")[0]).toMatch(/^"VRChatユーザー名","Discord ID","状態","送信日時","審査日時","メモ","What is your VRChat username\?"/);
    expect((await get("/admin/applications/export", { cookie: rowan })).body.split("\r\n")[0]).toMatch(/^"VRChat Username","Discord ID","Status"/);

    // Back to the site's default.
    await postForm(server.url, "/admin/security", { intent: "language", language: "" }, { cookie: kaede });
    expect(langOf((await get("/admin", { cookie: kaede })).body)).toBe("en");
  });

  it("runs the Sanctum's events in Japanese for the one who chose it, and says how a series repeats in each reader's language", async () => {
    createAccountWithCommand(server.dataDir, "tsubaki@dwell.example", "moonlight-over-the-tsubaki", "admin");
    createAccountWithCommand(server.dataDir, "alder@dwell.example", "moonlight-over-the-alder", "admin");
    const tsubaki = await signIn(server.url, "tsubaki@dwell.example", "moonlight-over-the-tsubaki");
    const alder = await signIn(server.url, "alder@dwell.example", "moonlight-over-the-alder");
    expect((await postForm(server.url, "/admin/security", { intent: "language", language: "ja" }, { cookie: tsubaki })).status).toBe(303);

    const list = await get("/admin/events", { cookie: tsubaki });
    expect(langOf(list.body)).toBe("ja");
    expect(textOf(list.body)).toContain("新しいイベントを作成");
    expect(list.body).toContain("<title>イベント · The Sanctum</title>");
    const editor = textOf((await get("/admin/events?new", { cookie: tsubaki })).body);
    for (const words of ["開催日", "開始時刻", "ワールド名", "申し込み制にする", "繰り返し", "2週間ごと", "毎月同じ曜日"]) expect(editor).toContain(words);
    expect(editor).not.toContain("Event Date");

    // A refusal in Japanese, and nothing saved.
    const event = { intent: "create", title: "", eventDate: "2027-01-05", eventTime: "20:00", timezone: "UTC", worldName: "The Hollow" };
    const refused = await postForm(server.url, "/admin/events", event, { cookie: tsubaki });
    expect(refused.status).toBe(400);
    expect(textOf(await refused.text())).toContain("タイトルは必須です");
    const tooShort = await postForm(server.url, "/admin/events", { ...event, title: "Lantern Walk", repeats: "weekly", repeatCount: "1" }, { cookie: tsubaki });
    expect(tooShort.status).toBe(400);
    expect(textOf(await tooShort.text())).toContain("シリーズは2回以上です");

    // A weekly series of three, from a Tuesday.
    const made = await postForm(server.url, "/admin/events", { ...event, title: "Lantern Walk", repeats: "weekly", repeatCount: "3" }, { cookie: tsubaki });
    expect(made.status).toBe(302);
    await made.body?.cancel();
    const japanese = await get("/admin/events", { cookie: tsubaki });
    expect(textOf(japanese.body)).toContain("毎週火曜日 · 全3回中 第1回");
    expect(textOf(japanese.body)).toContain("イベントを編集");
    const english = textOf((await get("/admin/events", { cookie: alder })).body);
    expect(english).toContain("Weekly on Tuesday · event 1 of 3");
    expect(english).toContain("Edit Event");

    // The public page says it too, in the visitor's language.
    const link = /<a [^>]*aria-label="Lantern Walkを編集"[^>]*>/.exec(japanese.body)![0];
    const id = /\?edit=([0-9a-f-]{36})/.exec(link)![1]!;
    expect(textOf((await get(`/events/${id}`, { "Accept-Language": JAPANESE_BROWSER })).body)).toContain("毎週火曜日");
    expect(textOf((await get(`/events/${id}`, { "Accept-Language": "en-US" })).body)).toContain("Weekly on Tuesday");

    // Its link-preview picture speaks the page's language, each language at its own address.
    const imageOf = (html: string) => /<meta property="og:image" content="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
    const japaneseImage = new URL(imageOf((await get(`/events/${id}`, { "Accept-Language": JAPANESE_BROWSER })).body));
    const englishImage = new URL(imageOf((await get(`/events/${id}`, { "Accept-Language": "en-US" })).body));
    expect(japaneseImage.searchParams.get("lang")).toBe("ja");
    expect(englishImage.searchParams.has("lang")).toBe(false);
    const [japanesePicture, englishPicture, browserPicture] = await Promise.all([
      fetch(`${server.url}${japaneseImage.pathname}${japaneseImage.search}`).then(async (r) => ({ type: r.headers.get("content-type"), bytes: Buffer.from(await r.arrayBuffer()) })),
      fetch(`${server.url}${englishImage.pathname}${englishImage.search}`).then(async (r) => Buffer.from(await r.arrayBuffer())),
      // The browser's language does not choose it: one address, one picture.
      fetch(`${server.url}${englishImage.pathname}${englishImage.search}`, { headers: { "Accept-Language": JAPANESE_BROWSER } }).then(async (r) => Buffer.from(await r.arrayBuffer())),
    ]);
    expect(japanesePicture.type).toBe("image/jpeg");
    expect(japanesePicture.bytes.equals(englishPicture)).toBe(false);
    expect(browserPicture.equals(englishPicture)).toBe(true);
  });

  it("greets a Japanese visitor at the Sanctum's doors in Japanese: a reset link, an invitation, a forgotten passphrase, a form from elsewhere", async () => {
    const reset = await get("/admin/reset-password", { "Accept-Language": JAPANESE_BROWSER });
    expect(langOf(reset.body)).toBe("ja");
    expect(textOf(reset.body)).toContain("再設定のリンクが無効です。");
    expect(reset.body).toContain("<title>パスフレーズの再設定 · Dwell</title>");
    const invitation = await get(`/admin/join/${"x".repeat(43)}`, { "Accept-Language": JAPANESE_BROWSER });
    expect(invitation.status).toBe(404);
    expect(textOf(invitation.body)).toContain("この招待は無効です。");
    const forgot = await postForm(server.url, "/admin/forgot-password", { email: "" }, { "Accept-Language": JAPANESE_BROWSER });
    expect(forgot.status).toBe(400);
    expect(textOf(await forgot.text())).toContain("先にメールアドレスを入力してください");
    const elsewhere = await rawRequest(`${server.url}/admin/forgot-password`, {
      method: "POST",
      body: "email=a%40b.example",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://elsewhere.example", "Accept-Language": JAPANESE_BROWSER },
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toContain("このフォームはサイト自身から送信してください。");
  });

  it("asks a question in the visitor's language once staff translate it, and keeps the answer as the option is written", async () => {
    createAccountWithCommand(server.dataDir, "hoshi@dwell.example", "moonlight-over-the-hoshi", "owner");
    const owner = await signIn(server.url, "hoshi@dwell.example", "moonlight-over-the-hoshi");
    const editor = (await rawRequest(`${server.url}/admin/questions`, { headers: { cookie: owner } })).body;
    expect(textOf(editor)).toContain("In other languages");
    // The demo form's 'How did you find the Dwellers?' (Multiple Choice), by its id in the public form.
    const form = (await get("/apply")).body;
    const id = /<select[^>]*name="answer\.([0-9a-f-]{36})"/.exec(form)![1]!;
    const saved = await postForm(
      server.url,
      "/admin/questions",
      [["intent", "translate"], ["id", id], ["language", "ja"], ["question", "Dwellers をどこで知りましたか？"], ["helpText", ""], ["statement", ""], ["optionFor", "An event"], ["option", "イベント"]],
      { cookie: owner },
    );
    expect(saved.status).toBe(200);
    const refused = await postForm(server.url, "/admin/questions", [["intent", "translate"], ["id", id], ["language", "xx"], ["question", "?"]], { cookie: owner });
    expect(refused.status).toBe(400);

    const japanese = (await get("/apply", { "Accept-Language": JAPANESE_BROWSER })).body;
    expect(textOf(japanese)).toContain("Dwellers をどこで知りましたか？");
    expect(japanese).toMatch(/<option value="An event">イベント<\/option>/);
    // Another language's words never reach this page.
    const english = (await get("/apply", { "Accept-Language": "en-US" })).body;
    expect(textOf(english)).toContain("How did you find the Dwellers?");
    expect(english).not.toContain("どこで知りましたか");

    // A refusal names the question as the visitor read it; the answer kept is the option as written.
    const fields = [...japanese.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((match) => match[1]!);
    const name = `Kotori ${Math.random().toString(36).slice(2, 8)}`;
    const post = (values: Record<string, string>) =>
      rawRequest(`${server.url}/apply`, {
        method: "POST",
        body: new URLSearchParams(values).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, "Accept-Language": JAPANESE_BROWSER },
      });
    const answers = Object.fromEntries(fields.map((field, i) => [field, [name, `${name}-discord`, "", "こんにちは"][i] ?? ""]));
    const missing = await post(answers);
    expect(missing.status).toBe(400);
    expect(textOf(missing.body)).toContain("回答してください: Dwellers をどこで知りましたか？");
    const taken = await post({ ...answers, [`answer.${id}`]: "An event" });
    expect(taken.status).toBe(200);
    const review = textOf((await rawRequest(`${server.url}/admin/applications?status=all`, { headers: { cookie: owner } })).body);
    const card = review.slice(review.indexOf(name));
    expect(card).toContain("How did you find the Dwellers? * An event");
  });

  it("gives a Japanese visitor the calendar feed in Japanese, subscribed to as such", async () => {
    const page = (await get("/events", { "Accept-Language": JAPANESE_BROWSER })).body;
    expect(page).toContain(`webcal://${new URL(server.publicUrl).host}/events.ics?lang=ja`);
    expect(page).toContain('href="/events.ics?lang=ja"');
    // A calendar app asks in its own language; the address keeps the visitor's.
    const feed = (await get("/events.ics?lang=ja", { "Accept-Language": "en-US" })).body;
    expect(feed).toContain("X-WR-CALNAME:Dwellers のイベント");
    expect(feed.replace(/\r\n /g, "")).toContain("参加には申し込みが必要です：");
    const english = (await get("/events.ics", { "Accept-Language": "en-US" })).body;
    expect(english).toContain("X-WR-CALNAME:The Dwellers' events");
    expect((await get("/events", { "Accept-Language": "en-US" })).body).not.toContain("events.ics?lang=");
  });

  it("passes over languages it does not offer and hints it cannot read, with no error", async () => {
    const hints: Record<string, string>[] = [
      { Cookie: "lang=xx" },
      { Cookie: "lang=%00%ff" },
      { "Accept-Language": "xx" },
      { "Accept-Language": "*;q=0" },
      { "Accept-Language": "ja;q=0, en;q=0.5" },
      { "Accept-Language": `${"x".repeat(1_990)},ja` },
      { "Accept-Language": "ja;q=abc, ja-JP;q=2" },
    ];
    for (const headers of hints) {
      const page = await get("/", headers);
      expect(page.status, JSON.stringify(headers)).toBe(200);
      expect(langOf(page.body), JSON.stringify(headers)).toBe("en");
    }
    expect(langOf((await get("/?lang=xx", { "Accept-Language": JAPANESE_BROWSER })).body)).toBe("ja");
    // A language the visitor once chose, no longer offered: the browser's language decides.
    expect(langOf((await get("/", { Cookie: "lang=de", "Accept-Language": JAPANESE_BROWSER })).body)).toBe("ja");

    const refused = await choose({ language: "xx", next: "/" });
    expect(refused.status).toBe(400);
    expect(refused.body).toBe("That language is not offered here.");
    expect(refused.headers["set-cookie"]).toBeUndefined();
    const refusedInJapanese = await choose({ language: "de" }, { "Accept-Language": JAPANESE_BROWSER });
    expect(refusedInJapanese.status).toBe(400);
    expect(refusedInJapanese.body).toBe("その言語はこのサイトでは選べません。");
    // Never back to another site.
    const elsewhere = await choose({ language: "ja", next: "//evil.example/x" });
    expect(elsewhere.status).toBe(303);
    expect(elsewhere.headers.location).toBe("/");
    // From another site: refused like every other form.
    const crossSite = await choose({ language: "ja" }, { Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
  });
});

describe("without SITE_LANGUAGES", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await start({});
  });
  afterAll(() => server?.stop());

  it("is English whatever the browser asks, with no language menu or alternates", async () => {
    const page = await rawRequest(`${server.url}/`, { headers: { "Accept-Language": JAPANESE_BROWSER } });
    expect(langOf(page.body)).toBe("en");
    expect(textOf(page.body)).toContain("All Upcoming Events");
    expect(page.body).not.toContain('action="/language"');
    expect(page.body).not.toContain("hreflang");
    expect(page.headers["content-language"]).toBeUndefined();
  });

  it("refuses to start with a language that has no catalogue, naming it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "dwell-languages-"));
    folders.push(dataDir);
    const exited = await runServerProcess({ DATA_DIR: dataDir, SITE_LANGUAGES: "en,xx" });
    expect(exited.code).not.toBe(0);
    expect(exited.output).toContain("SITE_LANGUAGES: no catalogue for xx (messages/ has en, ja)");
  });
});
