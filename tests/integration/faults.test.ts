/**
 * Every integration failing in each way a real one does, against the real server process: nothing
 * listening (connection refused), answering slower than the client's timeout, and answering
 * nonsense (an HTML page, or JSON of the wrong shape; for SMTP a greeting that is not SMTP, or none).
 * Throughout, the public pages and the flows that touch the integration (an application, which
 * queues notifications; a password reset request, which sends an email) answer without a 5xx,
 * within a bound derived from the integration's timeout; and each failed attempt is logged once,
 * however many visitors came meanwhile.
 *
 * One server process (a fresh embedded database with the demo content) talks to all five fakes:
 * VRChat fails first while the others work, then the outgoing services (Telegram, Google Sheets,
 * Discord and SMTP), switched together from one mode to the next, while VRChat works.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shownText, startFakeDiscord } from "../fakes/discord";
import type { FakeMode } from "../fakes/fake-server";
import { startFakeGoogleSheets } from "../fakes/google-sheets";
import { startFakeSmtp, type FakeSmtp, type FakeSmtpMode } from "../fakes/smtp";
import { startFakeTelegram } from "../fakes/telegram";
import { fakeVRChatEnv, startFakeVRChat, type FakeVRChat, type FakeVRChatMode } from "../fakes/vrchat";
import { createAccountWithCommand, postForm } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

/**
 * What a page may take on top of an integration's timeout on this busy two-core machine: an upper
 * bound for correctness (no request waits on a failing service for more than one timeout), not a
 * speed goal.
 */
const RENDER_ALLOWANCE_MS = 4_000;
const VISITORS = 20;
const AT_ONCE = 5;

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
function tempDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** The server's JSON log lines written since `from` (an offset in its output). */
function logSince(server: ServerProcess, from: number): LogLine[] {
  const lines: LogLine[] = [];
  for (const line of server.output().slice(from).split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // A line still being written (the last one), or another program's output.
    }
  }
  return lines;
}

const problems = (lines: LogLine[]) => lines.filter((line) => line.level === "error" || line.level === "warn");
/**
 * Each describe looks at the complaints about its own services: on a busy machine a stalled event
 * loop can make one call to a healthy service time out, and that is logged too (once).
 */
const aboutVRChat = (line: LogLine) => JSON.stringify(line).includes("VRChat");

interface Timed {
  path: string;
  status: number;
  ms: number;
  text: string;
}

async function timed(url: string, path: string, init?: RequestInit): Promise<Timed> {
  const started = Date.now();
  const response = await fetch(`${url}${path}`, { redirect: "manual", ...init });
  const text = await response.text();
  return { path, status: response.status, ms: Date.now() - started, text };
}

/** `VISITORS` page views over the four public pages, `AT_ONCE` at a time. */
async function visitors(url: string, eventId: string): Promise<Timed[]> {
  const pages = ["/", "/events", `/events/${eventId}`, "/apply"];
  const results: Timed[] = [];
  for (let i = 0; i < VISITORS; i += AT_ONCE) {
    const round = Array.from({ length: AT_ONCE }, (_, j) => pages[(i + j) % pages.length]!);
    results.push(...(await Promise.all(round.map((path) => timed(url, path)))));
  }
  return results;
}

function expectAnswered(results: Timed[], boundMs: number) {
  for (const result of results) {
    expect(result.status, `${result.path}: ${result.text.slice(0, 200)}`).toBe(200);
    expect(result.ms, `${result.path} took ${result.ms} ms`).toBeLessThan(boundMs);
  }
}

async function groupFormFields(url: string) {
  const html = await (await fetch(`${url}/apply`)).text();
  return [...html.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
}

function apply(url: string, fields: string[], name: string) {
  const answers = [name, name, "A friend", `About ${name}`, ""];
  return timed(url, "/apply", { method: "POST", body: new URLSearchParams(fields.map((field, i) => [field, answers[i] ?? ""])) });
}

async function firstEventId(url: string) {
  const html = await (await fetch(`${url}/events`)).text();
  const match = /href="\/events\/([0-9a-f-]{36})"/.exec(html);
  if (!match) throw new Error(`no event on /events: ${html.slice(0, 500)}`);
  return match[1]!;
}

const VRCHAT_TIMEOUT_SECONDS = 2;
const VRCHAT_WINDOW_SECONDS = 3;
const NOTIFICATION_TIMEOUT_SECONDS = 1;
const SMTP_TIMEOUT_MS = 1_000;
/** An account may ask for 3 reset links an hour: the requests below take turns among these. */
const ADMINS = ["keeper@dwell.example", "warden@dwell.example", "ranger@dwell.example"];
let resetsAsked = 0;
const nextAdmin = () => ADMINS[Math.floor(resetsAsked++ / 3)]!;

let vrchat: FakeVRChat;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
let sheets: Awaited<ReturnType<typeof startFakeGoogleSheets>>;
let smtp: FakeSmtp;
let server: ServerProcess;
let fields: string[];
let eventId: string;
let applicants = 0;

beforeAll(async () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const clientEmail = "dwell@dwell-faults.iam.gserviceaccount.com";
  [vrchat, telegram, discord, sheets, smtp] = await Promise.all([
    startFakeVRChat(),
    startFakeTelegram(),
    startFakeDiscord(),
    startFakeGoogleSheets({ publicKey, clientEmail }),
    startFakeSmtp(),
  ]);
  const dir = tempDir("dwell-faults-");
  const keyFile = join(dir, "service-account.json");
  writeFileSync(
    keyFile,
    JSON.stringify({ client_email: clientEmail, private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), token_uri: sheets.tokenUri }),
  );
  const dataDir = join(dir, "data");
  server = await startServerProcess({
    DATA_DIR: dataDir,
    ...fakeVRChatEnv(vrchat),
    VRCHAT_CACHE_SECONDS: String(VRCHAT_WINDOW_SECONDS),
    VRCHAT_TIMEOUT_SECONDS: String(VRCHAT_TIMEOUT_SECONDS),
    TELEGRAM_BOT_TOKEN: "123:faults",
    TELEGRAM_CHAT_ID: "-1001",
    TELEGRAM_API_URL: telegram.url,
    DISCORD_WEBHOOK_URL: `${discord.url}/api/webhooks/1/faults`,
    GOOGLE_SHEETS_ID: "faults-sheet",
    GOOGLE_SERVICE_ACCOUNT_FILE: keyFile,
    GOOGLE_SHEETS_API_URL: sheets.url,
    NOTIFICATION_TIMEOUT_SECONDS: String(NOTIFICATION_TIMEOUT_SECONDS),
    SMTP_URL: smtp.url({ connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS }),
    MAIL_FROM: "Dwell <sanctum@dwell.example>",
    RATE_LIMIT_APPLICATIONS: "1000",
    RATE_LIMIT_SIGN_IN: "1000",
  });
  for (const admin of ADMINS) createAccountWithCommand(dataDir, admin, "moonlight-over-the-hall", "admin");
  fields = await groupFormFields(server.url);
  try {
    eventId = await firstEventId(server.url);
  } catch (error) {
    // With the server's own complaints beside it, a failed start explains itself.
    const complaints = problems(logSince(server, 0)).map((line) => JSON.stringify(line));
    throw new Error(`${String(error)}\n${complaints.join("\n")}`, { cause: error });
  }
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([vrchat?.close(), telegram?.close(), discord?.close(), sheets?.close(), smtp?.close()]);
});

function resetRequest(email: string): Promise<Timed> {
  const started = Date.now();
  return postForm(server.url, "/admin/forgot-password", { email }).then(async (response) => ({
    path: "/admin/forgot-password",
    status: response.status,
    text: await response.text(),
    ms: Date.now() - started,
  }));
}

describe("VRChat failing", () => {
  const REFRESH_FAILED = "refreshing the VRChat group data failed; the last good value is served";
  // A refresh whose parts did not all fail (an answer without calendar results is a valid, empty one).
  const PART_FAILED = "part of the VRChat group data could not be read; its last good value is served";
  const isFailure = (line: LogLine) => line.msg === REFRESH_FAILED || line.msg === PART_FAILED;
  // A page may wait for the database, never for VRChat: not even one of its timeouts, let alone a
  // whole refresh (three attempts, with waits between them).
  const BOUND_MS = VRCHAT_TIMEOUT_SECONDS * 1000 + RENDER_ALLOWANCE_MS;

  it("serves VRChat's data while it works", async () => {
    await expect
      .poll(async () => (await timed(server.url, "/events")).text, { timeout: 20_000, interval: 500 })
      .toContain("2,451");
  });

  it.each<[string, FakeVRChatMode, number]>([
    ["refused", "refused", 0],
    ["slower than its timeout", "normal", 2 * VRCHAT_TIMEOUT_SECONDS * 1000],
    ["answering an HTML page", "garbage", 0],
    ["answering JSON of the wrong shape", "wrong-shape", 0],
  ])("keeps every page up, and logs one failure per refresh, with VRChat %s", async (_name, mode, delayMs) => {
    await vrchat.setMode(mode);
    vrchat.setDelay(delayMs);
    const from = server.output().length;
    const started = Date.now();
    // Let the cached copy go stale, so that visitors ask for a refresh.
    await sleep(VRCHAT_WINDOW_SECONDS * 1000);

    const submitted = apply(server.url, fields, `vrchat-fault-${++applicants}`);
    const views = await visitors(server.url, eventId);
    await expect
      .poll(() => logSince(server, from).filter(isFailure).length, { timeout: 20_000, interval: 250 })
      .toBeGreaterThan(0);
    const home = await timed(server.url, "/");
    expectAnswered([...views, await submitted, home], BOUND_MS);
    expect((await submitted).text).toContain("The Ritual Is Complete");
    // The last good value is still shown.
    expect(home.text).toContain("2,451");

    // One log line per failed refresh, at most one refresh per window (after each failure the lease
    // is held for a window), and nothing else complaining: the visitors did not multiply it.
    const elapsed = Date.now() - started;
    // The join requests' own read (a staff-side job, once a minute) says once that it failed.
    const JOIN_REQUESTS_UNREAD = "could not read the group's join requests from VRChat; they are read again each minute";
    const all = problems(logSince(server, from)).filter(aboutVRChat);
    expect(all.filter((line) => line.msg === JOIN_REQUESTS_UNREAD).length).toBeLessThanOrEqual(1);
    const lines = all.filter((line) => line.msg !== JOIN_REQUESTS_UNREAD);
    const failures = lines.filter(isFailure);
    expect(lines).toEqual(failures);
    expect(failures.length).toBeLessThanOrEqual(Math.floor(elapsed / (VRCHAT_WINDOW_SECONDS * 1000)) + 1);
  });

  it("recovers when VRChat does", async () => {
    await vrchat.setMode("normal");
    vrchat.setDelay(0);
    vrchat.group.memberCount = 2600;
    await expect
      .poll(async () => (await timed(server.url, "/events")).text, { timeout: 20_000, interval: 500 })
      .toContain("2,600");
  });
});

describe("Telegram, Google Sheets, Discord and SMTP failing (all at once)", () => {
  // Nothing a visitor does waits for these services: notifications are queued, emails sent in the
  // background. The bound still allows one timeout.
  const BOUND_MS = Math.max(NOTIFICATION_TIMEOUT_SECONDS * 1000, SMTP_TIMEOUT_MS) + RENDER_ALLOWANCE_MS;
  const RETRY = "notification will be retried";
  const MAIL_FAILED = "sending an email failed";
  const channels = ["telegram", "google_sheets", "discord"] as const;

  async function setModes(http: FakeMode, mail: FakeSmtpMode, delayMs = 0) {
    await Promise.all([telegram.setMode(http), discord.setMode(http), sheets.setMode(http), smtp.setMode(mail, { delayMs })]);
    for (const fake of [telegram, discord, sheets]) fake.setDelay(delayMs);
  }

  it("delivers while every service works", async () => {
    const from = server.output().length;
    const before = [telegram.requests.length, sheets.requests.length, discord.requests.length, smtp.mails.length];
    expect((await apply(server.url, fields, "outgoing-ok")).status).toBe(200);
    expect((await resetRequest(nextAdmin())).text).toContain("Password reset email sent!");
    await expect
      .poll(() => [telegram.requests.length, sheets.requests.length, discord.requests.length, smtp.mails.length], { timeout: 15_000 })
      .toEqual(before.map((n) => n + 1));
    expect(problems(logSince(server, from)).filter((l) => !aboutVRChat(l))).toEqual([]);
  });

  it.each<[string, FakeMode, FakeSmtpMode, number]>([
    ["refusing connections", "refused", "refused", 0],
    ["slower than their timeouts", "normal", "slow", 3 * NOTIFICATION_TIMEOUT_SECONDS * 1000],
    ["never answering", "hang", "hang", 0],
    ["answering garbage", "garbage", "garbage", 0],
    ["answering JSON of the wrong shape", "wrong-shape", "garbage", 0],
  ])("keeps every page and flow up, and logs each failed attempt once, with every service %s", async (_name, http, mail, delayMs) => {
    await setModes(http, mail, delayMs);
    const from = server.output().length;
    const mailsBefore = smtp.mails.length;

    const submitted = await apply(server.url, fields, `outgoing-fault-${++applicants}`);
    const reset = await resetRequest(nextAdmin());
    const unknown = await resetRequest(`nobody-${applicants}@dwell.example`);
    const views = await visitors(server.url, eventId);
    expectAnswered([submitted, reset, unknown, ...views], BOUND_MS);
    expect(submitted.text).toContain("The Ritual Is Complete");
    // The same answer, whether the account exists and whether the mail could be sent.
    expect(reset.text).toContain("Password reset email sent!");
    expect(unknown.text).toContain("Password reset email sent!");

    // This application's job failed on every channel, and the email once.
    await expect
      .poll(
        () => {
          const lines = logSince(server, from);
          const failedTargets = new Set(lines.filter((l) => l.msg === RETRY && l.attempts === 1).map((l) => l.target));
          return { channels: channels.filter((c) => failedTargets.has(c)), mails: lines.filter((l) => l.msg === MAIL_FAILED).length };
        },
        { timeout: 15_000, interval: 250 },
      )
      .toEqual({ channels: [...channels], mails: 1 });
    // Nothing complains twice: one line per failed delivery attempt of a job, one per failed email,
    // and nothing else at all (no page, no request logged an error of its own).
    await sleep(500);
    const lines = problems(logSince(server, from)).filter((l) => !aboutVRChat(l));
    expect(lines.filter((l) => l.msg !== RETRY && l.msg !== MAIL_FAILED)).toEqual([]);
    expect(lines.filter((l) => l.msg === MAIL_FAILED)).toHaveLength(1);
    expect(smtp.mails.length).toBe(mailsBefore);
    const attempts = lines.filter((l) => l.msg === RETRY).map((l) => `${String(l.jobId)}#${String(l.attempts)}`);
    expect(new Set(attempts).size).toBe(attempts.length);
  });

  it("logged each job's attempts once each, from the first to the last", () => {
    const retries = logSince(server, 0).filter((l) => l.msg === RETRY);
    const byJob = new Map<string, number[]>();
    for (const line of retries) byJob.set(String(line.jobId), [...(byJob.get(String(line.jobId)) ?? []), Number(line.attempts)]);
    expect(byJob.size).toBeGreaterThanOrEqual(5 * channels.length);
    for (const [job, attempts] of byJob) expect(attempts, job).toEqual(attempts.map((_, i) => i + 1));
  });

  it("delivers again once the services are back", async () => {
    await setModes("normal", "normal");
    const mailsBefore = smtp.mails.length;
    const discordBefore = discord.requests.length;
    expect((await apply(server.url, fields, "outgoing-back")).status).toBe(200);
    expect((await resetRequest(nextAdmin())).text).toContain("Password reset email sent!");
    await expect.poll(() => smtp.mails.length, { timeout: 10_000 }).toBe(mailsBefore + 1);
    await expect
      .poll(() => discord.requests.slice(discordBefore).some((d) => shownText(d).includes("outgoing-back")), { timeout: 10_000 })
      .toBe(true);
  });
});
