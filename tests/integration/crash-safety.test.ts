/**
 * Crash safety: the server process is killed (SIGKILL, no chance to clean up) in the middle of a
 * stream of applications, while notification jobs are queued and some are being sent. After a
 * restart on the same data, every application that got a success answer is stored and each of its
 * notifications reaches every channel.
 *
 * Duplicates the outbox allows (docs/decisions/005-notification-outbox.md, 011): delivery is at
 * least once. A job whose message reached a channel before the kill, but whose outcome was not yet
 * recorded, is sent once more after the restart, when its lease has run out. Only leased jobs can be
 * in that state, and a worker leases one batch (10 jobs) at a time: so at most 10 notifications are
 * sent twice per crash, none more than twice, and only ones that arrived before the kill.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, type DatabaseHandle } from "~/db/db.server";
import { seedDemoContent } from "../../server/demo-content";
import { shownText, startFakeDiscord } from "../fakes/discord";
import { startFakeGoogleSheets } from "../fakes/google-sheets";
import { startFakeTelegram } from "../fakes/telegram";
import { startServerProcess, type ServerProcess } from "../setup/server-process";
import { createTestDatabase, DATABASE_KINDS, type DatabaseKind, type TestDatabase } from "../setup/test-database";

/**
 * One outbox batch: the most jobs a process has leased (and may be sending at once) in one service's
 * lane at any moment. The lanes run side by side, so each channel may have a batch in flight.
 */
const OUTBOX_BATCH = 10;
const CHANNELS = ["telegram", "discord", "google_sheets"] as const;
type Channel = (typeof CHANNELS)[number];
/** Applications acknowledged before the kill. */
const KILL_AFTER = 24;
const CLIENTS = 4;
/**
 * Each channel answers this late, well within the timeout (also on a loaded machine, where an answer
 * on loopback can take a second more): jobs queue up behind each other.
 */
const CHANNEL_DELAY_MS = 1_000;
const NOTIFICATION_TIMEOUT_SECONDS = 5;
/**
 * The outbox lease with these channels: the slowest delivery (Sheets: sign-in and append, each
 * within the timeout) plus 10 s. Jobs leased by the killed process are taken again after it, at
 * the worker's next run (every 5 s).
 */
const LEASE_MS = 2 * NOTIFICATION_TIMEOUT_SECONDS * 1000 + 10_000;
const WORKER_POLL_MS = 5_000;

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const clientEmail = "dwell@dwell-crash.iam.gserviceaccount.com";

/** The applicant a delivery is about: names are `crash-<kind>-NNN`, so none is a prefix of another. */
const NAME = /crash-[a-z]+-\d{3}/;

interface Submission {
  name: string;
  acknowledged: boolean;
}

function countBy(names: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

describe.each(DATABASE_KINDS)("kill -9 during a stream of applications [%s]", (kind: DatabaseKind) => {
  let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
  let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
  let sheets: Awaited<ReturnType<typeof startFakeGoogleSheets>>;
  let server: ServerProcess | undefined;
  let postgres: TestDatabase | undefined;
  let dir: string;
  let env: Record<string, string>;

  const delivered = (): Record<Channel, string[]> => ({
    telegram: telegram.requests.map((d) => NAME.exec(d.shownText)?.[0] ?? "?"),
    discord: discord.requests.map((d) => NAME.exec(shownText(d))?.[0] ?? "?"),
    google_sheets: sheets.requests.map((d) => d.values[0]?.[3] ?? "?"),
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `dwell-crash-${kind}-`));
    telegram = await startFakeTelegram();
    discord = await startFakeDiscord();
    sheets = await startFakeGoogleSheets({ publicKey, clientEmail, spreadsheetId: "crash-sheet" });
    const keyFile = join(dir, "service-account.json");
    writeFileSync(
      keyFile,
      JSON.stringify({
        client_email: clientEmail,
        private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        token_uri: sheets.tokenUri,
      }),
    );
    env = {
      TELEGRAM_BOT_TOKEN: "123:crash-token",
      TELEGRAM_CHAT_ID: "-1001",
      TELEGRAM_API_URL: telegram.url,
      DISCORD_WEBHOOK_URL: `${discord.url}/api/webhooks/1/crash-token`,
      GOOGLE_SHEETS_ID: "crash-sheet",
      GOOGLE_SERVICE_ACCOUNT_FILE: keyFile,
      GOOGLE_SHEETS_API_URL: sheets.url,
      NOTIFICATION_TIMEOUT_SECONDS: String(NOTIFICATION_TIMEOUT_SECONDS),
      RATE_LIMIT_APPLICATIONS: "10000",
    };
    if (kind === "postgres") {
      postgres = await createTestDatabase("postgres");
      await seedDemoContent(postgres.db, new Date());
      env.DATABASE_URL = postgres.url!;
      env.AUTH_SECRET = "a-secret-for-the-crash-safety-test-0123456789";
    } else {
      env.DATA_DIR = join(dir, "data");
    }
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await postgres?.close();
    await Promise.all([telegram?.close(), discord?.close(), sheets?.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps every acknowledged application and delivers all of its notifications after a restart", async () => {
    for (const fake of [telegram, discord, sheets]) fake.setDelay(CHANNEL_DELAY_MS);
    server = await startServerProcess(env);
    const first = server;
    const html = await (await fetch(`${first.url}/apply`)).text();
    const fields = [...html.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    expect(fields.length).toBeGreaterThanOrEqual(4);

    // Several clients submit one after another until the server dies under them.
    const submissions: Submission[] = [];
    const refused: string[] = [];
    let next = 0;
    let killed: Promise<unknown> | undefined;
    async function client() {
      for (;;) {
        const name = `crash-${kind}-${String(next++).padStart(3, "0")}`;
        const answers = [name, name, "A friend", `About ${name}`, ""];
        const submission: Submission = { name, acknowledged: false };
        submissions.push(submission);
        let answer: { status: number; text: string };
        try {
          const response = await fetch(`${first.url}/apply`, {
            method: "POST",
            body: new URLSearchParams(fields.map((field, i) => [field, answers[i] ?? ""])),
          });
          answer = { status: response.status, text: await response.text() };
        } catch {
          return; // The server is gone: this one got no answer.
        }
        submission.acknowledged = answer.status === 200 && answer.text.includes("The Ritual Is Complete");
        if (!submission.acknowledged) refused.push(`${name}: ${answer.status}`);
        if (!killed && submissions.filter((s) => s.acknowledged).length >= KILL_AFTER) killed = first.stop("SIGKILL");
      }
    }
    await Promise.all(Array.from({ length: CLIENTS }, client));
    await killed;
    const killedAt = Date.now();
    // What reached the channels before the kill: a request the process wrote just before it died
    // is still on its way through loopback (and the fake's event loop) after its exit. Until the
    // restart, everything the fakes take comes from the killed process.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const atKill = delivered();
    expect(first.process.signalCode).toBe("SIGKILL");
    expect(refused).toEqual([]);

    const acknowledged = submissions.filter((s) => s.acknowledged).map((s) => s.name);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
    // Some jobs were still queued or being sent when the process died.
    expect(CHANNELS.some((channel) => atKill[channel].length < acknowledged.length)).toBe(true);

    // The restart: same data folder (its lock left behind by the dead process) or same database.
    for (const fake of [telegram, discord, sheets]) fake.setDelay(0);
    const restartedAt = Date.now();
    server = await startServerProcess(env);
    const startup = server.output();
    expect(startup).not.toMatch(/"level":"error"|PANIC|FATAL|corrupt/i);
    expect(Date.now() - restartedAt).toBeLessThan(30_000);

    // Every acknowledged application reaches every channel (some were sent before the kill).
    await expect
      .poll(
        () => {
          const now = delivered();
          return CHANNELS.flatMap((channel) => acknowledged.filter((name) => !now[channel].includes(name)).map((name) => `${channel}:${name}`));
        },
        { timeout: 45_000, interval: 500 },
      )
      .toEqual([]);

    // The jobs in flight at the kill may have reached a channel already: they are sent again once
    // their lease is out. Wait for that, so that every job has had its second chance.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, killedAt + LEASE_MS + WORKER_POLL_MS + 3_000 - Date.now())));

    // Duplicates: only jobs that reached the channel before the kill, at most once more each, at
    // most one batch per channel (on a busy machine each lane's whole batch can be sent while the
    // marks of its delivery wait behind the stream of applications in the database).
    const after = delivered();
    for (const channel of CHANNELS) {
      const before = countBy(atKill[channel]);
      let duplicates = 0;
      for (const [name, count] of countBy(after[channel])) {
        expect(count, `${channel} ${name}`).toBeLessThanOrEqual(2);
        if (count === 2) {
          expect(before.get(name), `${channel} ${name} sent twice, but not before the kill`).toBe(1);
          duplicates++;
        }
      }
      expect(duplicates, `${channel} duplicates`).toBeLessThanOrEqual(OUTBOX_BATCH);
    }

    // The database: every acknowledged application, each with one delivered job per channel.
    let handle: DatabaseHandle;
    if (kind === "pglite") {
      await expect(server.stop("SIGTERM")).resolves.toBe(0);
      // The folder opens in another process now that the server released it, without complaint.
      handle = await openPglite(join(env.DATA_DIR!, "pgdata"));
    } else {
      handle = postgres!;
    }
    try {
      // Both drivers answer raw queries with `{ rows }`; drizzle's shared type leaves it unknown.
      const stored = (await handle.db.execute(sql`
        select a.vrchat_username as name, count(o.id)::int as jobs,
               count(o.id) filter (where o.status = 'delivered')::int as delivered
        from applications a left join outbox o on o.source_id = a.id
        group by a.vrchat_username`)) as unknown as { rows: { name: string; jobs: number; delivered: number }[] };
      const rows = new Map(stored.rows.map((row) => [row.name, row]));
      for (const name of acknowledged) expect(rows.get(name), name).toMatchObject({ jobs: 3, delivered: 3 });
      // An application stored just before the kill, whose answer was lost, is complete too.
      for (const row of stored.rows.filter((r) => NAME.test(r.name))) expect(row).toMatchObject({ jobs: 3, delivered: 3 });
      expect(stored.rows.filter((r) => NAME.test(r.name)).length).toBeLessThanOrEqual(submissions.length);
    } finally {
      if (kind === "pglite") await handle.close();
    }
  }, 150_000);
});
