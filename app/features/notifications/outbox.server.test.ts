import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openPostgres } from "~/db/db.server";
import { outbox } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, ON_POSTGRES, type TestDatabase } from "../../../tests/setup/test-database";
import type { ApplicationNotification, DeliveryOutcome, NotificationChannel, NotificationTarget } from "./notification";
import { startFakeDiscord } from "../../../tests/fakes/discord";
import { currentLanguage } from "~/utils/language";
import { inLanguage, setSiteLanguages } from "~/utils/language.server";
import { createDiscordChannel } from "./discord.server";
import { headline } from "./format";
import { enqueueEditNotice } from "./edit-notices.server";
import { createOutboxWorker, enqueueNotification, retryDelay, retryFailedJobs, retryOutboxJob, type OutboxChannel, type OutboxTarget } from "./outbox.server";

const notification = (name: string): ApplicationNotification => ({
  type: "group_application",
  event_title: null,
  vrchat_username: name,
  discord_id: name.toLowerCase(),
  submitted_at: "2026-11-21T18:00:00.000Z",
  answers: [{ question: "Why?", answer: "Because" }],
});

/** A channel whose answers the test scripts; it records what it was asked to deliver. */
function scriptedChannel(target: NotificationTarget, answer: (n: ApplicationNotification) => DeliveryOutcome | Promise<DeliveryOutcome>) {
  const received: string[] = [];
  const channel: NotificationChannel = {
    target,
    async deliver(n) {
      received.push(n.vrchat_username);
      return answer(n);
    },
  };
  return { channel, received };
}

describe("retryDelay", () => {
  it("doubles from the base, stays under the cap, and jitters between half and all of it", () => {
    expect(retryDelay(1, 1000, 60_000, () => 0)).toBe(500);
    expect(retryDelay(1, 1000, 60_000, () => 1)).toBe(1000);
    expect(retryDelay(4, 1000, 60_000, () => 1)).toBe(8000);
    expect(retryDelay(20, 1000, 60_000, () => 1)).toBe(60_000);
    expect(retryDelay(20, 1000, 60_000, () => 0)).toBe(30_000);
  });
});

describeEachDatabase("the outbox", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(outbox);
  });

  async function enqueue(names: string[], targets: NotificationTarget[] = ["discord"]) {
    for (const name of names) await enqueueNotification(database.db, notification(name), targets, crypto.randomUUID());
  }
  const jobs = () => database.db.select().from(outbox).orderBy(outbox.createdAt);

  it("tells staff of one application's edits at most every ten minutes, each notice saying how many edits it covers", async () => {
    const id = crypto.randomUUID();
    const start = Date.now();
    const at = (minutes: number) => new Date(start + minutes * 60_000);
    const edited = (guests: string) => ({ ...notification("Moth"), edited: true, answers: [{ question: "Guests?", answer: guests }] });
    const edit = (guests: string, minutes: number) => database.db.transaction((tx) => enqueueEditNotice(tx, edited(guests), ["discord", "telegram"], id, at(minutes)));
    const notices = async () =>
      (await jobs()).map((job) => ({ target: job.target, due: job.nextAttemptAt.getTime(), edits: (job.payload as ApplicationNotification).edits, guests: (job.payload as ApplicationNotification).answers[0]!.answer }));
    await edit("1", 0);
    expect(await notices()).toEqual([
      { target: "discord", due: at(0).getTime(), edits: 1, guests: "1" },
      { target: "telegram", due: at(0).getTime(), edits: 1, guests: "1" },
    ]);
    // Two more within ten minutes of that notice: one notice, held until the ten minutes have passed, with the latest answers.
    await edit("2", 1);
    await edit("3", 4);
    const held = (await notices()).slice(2);
    expect(held).toEqual([
      { target: "discord", due: at(10).getTime(), edits: 2, guests: "3" },
      { target: "telegram", due: at(10).getTime(), edits: 2, guests: "3" },
    ]);
    expect(headline((await jobs())[2]!.payload as ApplicationNotification)).toBe("Application edited 2 times");
    // Once that one is due (the worker may be sending it), a new edit starts the next notice ten minutes later.
    await edit("4", 11);
    expect((await notices()).slice(4)).toEqual([
      { target: "discord", due: at(20).getTime(), edits: 1, guests: "4" },
      { target: "telegram", due: at(20).getTime(), edits: 1, guests: "4" },
    ]);
    // Long after: at once.
    await edit("5", 45);
    expect((await notices()).slice(6).map((notice) => notice.due)).toEqual([at(45).getTime(), at(45).getTime()]);
  });

  it("delivers every due job once and marks it delivered", async () => {
    await enqueue(["A", "B", "C"], ["discord", "telegram"]);
    const discord = scriptedChannel("discord", () => ({ kind: "delivered" }));
    const telegram = scriptedChannel("telegram", () => ({ kind: "delivered" }));
    const worker = createOutboxWorker(database.db, [discord.channel, telegram.channel], { maxAttempts: 3, batchSize: 2 });
    expect(await worker.runOnce()).toBe(6);
    expect(await worker.runOnce()).toBe(0);
    expect(discord.received.sort()).toEqual(["A", "B", "C"]);
    expect(telegram.received.sort()).toEqual(["A", "B", "C"]);
    expect((await jobs()).every((job) => job.status === "delivered" && job.deliveredAt && job.attempts === 1)).toBe(true);
  });

  it("leaves jobs of targets that are not configured alone", async () => {
    await enqueue(["A"], ["google_sheets"]);
    const discord = scriptedChannel("discord", () => ({ kind: "delivered" }));
    const worker = createOutboxWorker(database.db, [discord.channel], { maxAttempts: 3 });
    expect(await worker.runOnce()).toBe(0);
    expect((await jobs())[0]).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("backs off after a failure, then fails the job after the last attempt, keeping the error", async () => {
    await enqueue(["A"]);
    const down = scriptedChannel("discord", () => ({ kind: "retry", error: "503 Service Unavailable" }));
    const worker = createOutboxWorker(database.db, [down.channel], { maxAttempts: 3, retryBaseMs: 1, random: () => 0 });
    for (let attempt = 1; attempt <= 3; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await worker.runOnce()).toBe(1);
    }
    const [job] = await jobs();
    expect(job).toMatchObject({ status: "failed", attempts: 3, lastError: "503 Service Unavailable" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await worker.runOnce()).toBe(0);

    // An admin retries it; the target is back.
    // Only a job of an application the admin may act on is retried.
    expect(await retryOutboxJob(database.db, job!.id, async () => false)).toBe(false);
    expect(await retryOutboxJob(database.db, job!.id, async (sourceId) => sourceId === job!.sourceId)).toBe(true);
    const up = scriptedChannel("discord", () => ({ kind: "delivered" }));
    expect(await createOutboxWorker(database.db, [up.channel], { maxAttempts: 3 }).runOnce()).toBe(1);
    expect((await jobs())[0]).toMatchObject({ status: "delivered", lastError: null });
  });

  /** Jobs of an action target, as the decisions and the review channel queue them. */
  async function queue(target: string, count: number) {
    for (let i = 0; i < count; i++) await database.db.insert(outbox).values({ target, payload: { n: i, target }, sourceId: crypto.randomUUID() });
  }
  const recording = (target: OutboxTarget, order: string[], answer: () => DeliveryOutcome = () => ({ kind: "delivered" })): OutboxChannel => ({
    target,
    async deliver() {
      order.push(target);
      return answer();
    },
  });

  it("sends a decision's actions before a crowd's review posts, and each service's jobs beside the others'", async () => {
    // A crowd applied first: forty review posts wait; then a decision queues its DM and its VRChat action.
    await queue("discord_review", 40);
    await queue("discord_dm", 1);
    await queue("vrchat_membership", 1);
    const order: string[] = [];
    const worker = createOutboxWorker(database.db, [recording("discord_review", order), recording("discord_dm", order), recording("vrchat_membership", order)], { maxAttempts: 3, batchSize: 1 });
    expect(await worker.runOnce()).toBe(42);
    // The decision's DM went before every review post; its VRChat action did not wait for Discord's lane.
    expect(order.indexOf("discord_dm")).toBeLessThan(order.indexOf("discord_review"));
    // (Its lane runs beside Discord's: some review posts may go while it starts, but it never waits for all forty.)
    expect(order.indexOf("vrchat_membership")).toBeLessThan(order.lastIndexOf("discord_review"));
  });

  it("holds only the service that asked to slow down, for as long as it asked", async () => {
    await queue("discord_review", 5);
    await queue("vrchat_membership", 3);
    const order: string[] = [];
    const slowDown = (): DeliveryOutcome => ({ kind: "retry", error: "Discord asked us to slow down", retryAfterMs: 300, slowDown: true });
    const worker = createOutboxWorker(database.db, [recording("discord_review", order, slowDown), recording("vrchat_membership", order)], { maxAttempts: 10, batchSize: 1 });
    await worker.runOnce();
    // One Discord job met the 429; the rest of Discord's waited; VRChat's went.
    expect(order.filter((t) => t === "discord_review")).toHaveLength(1);
    expect(order.filter((t) => t === "vrchat_membership")).toHaveLength(3);
    await worker.runOnce();
    expect(order.filter((t) => t === "discord_review")).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 350));
    await worker.runOnce();
    expect(order.filter((t) => t === "discord_review").length).toBeGreaterThan(1);
  });

  it("keeps what a channel lets it keep of a settled job's payload", async () => {
    await queue("discord_dm", 1);
    const channel: OutboxChannel = { target: "discord_dm", deliver: async () => ({ kind: "delivered" }), redact: (payload) => ({ ...(payload as object), n: "kept out" }) };
    await createOutboxWorker(database.db, [channel], { maxAttempts: 1 }).runOnce();
    const [job] = await database.db.select().from(outbox);
    expect(job).toMatchObject({ status: "delivered", payload: { n: "kept out", target: "discord_dm" } });
  });

  it("puts every failed job of a target back in the queue at once", async () => {
    await enqueue(["A", "B"], ["discord", "telegram"]);
    await database.db.update(outbox).set({ status: "failed", attempts: 10 });
    expect(await retryFailedJobs(database.db, "discord")).toBe(2);
    const rows = await jobs();
    expect(rows.filter((r) => r.status === "pending").map((r) => [r.target, r.attempts])).toEqual([
      ["discord", 0],
      ["discord", 0],
    ]);
    expect(rows.filter((r) => r.status === "failed").every((r) => r.target === "telegram")).toBe(true);
  });

  it("waits as long as a 429 asked", async () => {
    await enqueue(["A"]);
    const limited = scriptedChannel("discord", () => ({ kind: "retry", error: "429", retryAfterMs: 42_000 }));
    const before = Date.now();
    await createOutboxWorker(database.db, [limited.channel], { maxAttempts: 5 }).runOnce();
    const after = Date.now();
    const [job] = await jobs();
    // 42 s from the moment the answer came, which was during the run (however slow the machine).
    expect(job!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 42_000);
    expect(job!.nextAttemptAt.getTime()).toBeLessThanOrEqual(after + 42_000);
    expect(job!.status).toBe("pending");
  });

  it("stops at once on a permanent failure", async () => {
    await enqueue(["A"]);
    const wrong = scriptedChannel("discord", () => ({ kind: "failed", error: "404 Unknown Webhook" }));
    await createOutboxWorker(database.db, [wrong.channel], { maxAttempts: 10 }).runOnce();
    expect((await jobs())[0]).toMatchObject({ status: "failed", attempts: 1, lastError: "404 Unknown Webhook" });
  });

  it("treats a channel that throws like a failure to retry", async () => {
    await enqueue(["A"]);
    const broken = scriptedChannel("discord", () => {
      throw new Error("bug in the channel");
    });
    await createOutboxWorker(database.db, [broken.channel], { maxAttempts: 10 }).runOnce();
    expect((await jobs())[0]).toMatchObject({ status: "pending", lastError: "bug in the channel" });
  });

  it("does not hand a job leased by a live worker to another, but takes it back once the lease runs out", async () => {
    await enqueue(["A"]);
    // A worker that crashed mid-delivery: the job is leased for 200 ms and never recorded.
    const [job] = await jobs();
    await database.db
      .update(outbox)
      .set({ lockedUntil: new Date(Date.now() + 200), attempts: 1 })
      .where(eq(outbox.id, job!.id));
    const rescuer = scriptedChannel("discord", () => ({ kind: "delivered" }));
    const worker = createOutboxWorker(database.db, [rescuer.channel], { maxAttempts: 3 });
    expect(await worker.runOnce()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await worker.runOnce()).toBe(1);
    expect((await jobs())[0]).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("speaks the site's default language when a request in another language wakes it", async () => {
    setSiteLanguages(["en", "ja"]);
    try {
      const spoken: string[] = [];
      const seen = scriptedChannel("discord", () => {
        spoken.push(currentLanguage());
        return { kind: "delivered" };
      });
      const worker = createOutboxWorker(database.db, [seen.channel], { maxAttempts: 3, pollIntervalMs: 60_000 });
      worker.start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await enqueue(["A"]);
      // A Japanese staff member's decision wakes the worker from their request.
      inLanguage("ja", () => worker.wake());
      await expect.poll(() => seen.received, { timeout: 15_000 }).toEqual(["A"]);
      await worker.stop();
      expect(spoken).toEqual(["en"]);
    } finally {
      setSiteLanguages(["en"]);
    }
  });

  it("runs in the background, woken by new jobs, and stops cleanly", async () => {
    const seen = scriptedChannel("discord", () => ({ kind: "delivered" }));
    const worker = createOutboxWorker(database.db, [seen.channel], { maxAttempts: 3, pollIntervalMs: 60_000 });
    worker.start();
    await enqueue(["A"]);
    worker.wake();
    await expect.poll(() => seen.received, { timeout: 15_000 }).toEqual(["A"]);
    await worker.stop();
    await enqueue(["B"]);
    worker.wake();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.received).toEqual(["A"]);
  });
});

describe.runIf(ON_POSTGRES)("the outbox with two processes on PostgreSQL", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterAll(() => database.close());

  it("never delivers a job twice when two workers with their own connections run at once", async () => {
    for (let i = 0; i < 60; i++) {
      await enqueueNotification(database.db, notification(`P${i}`), ["discord"], crypto.randomUUID());
    }
    const other = openPostgres(database.url!, 5);
    try {
      const slow = () => new Promise<DeliveryOutcome>((resolve) => setTimeout(() => resolve({ kind: "delivered" }), 5));
      const a = scriptedChannel("discord", slow);
      const b = scriptedChannel("discord", slow);
      const [ranA, ranB] = await Promise.all([
        createOutboxWorker(database.db, [a.channel], { maxAttempts: 3, batchSize: 5 }).runOnce(),
        createOutboxWorker(other.db, [b.channel], { maxAttempts: 3, batchSize: 5 }).runOnce(),
      ]);
      expect(ranA + ranB).toBe(60);
      expect(ranA).toBeGreaterThan(0);
      expect(ranB).toBeGreaterThan(0);
      const all = [...a.received, ...b.received].sort();
      expect(new Set(all).size).toBe(60);
    } finally {
      await other.close();
    }
  });
});

describeEachDatabase("the outbox with a real channel over HTTP", (kind) => {
  let database: TestDatabase;
  let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    discord = await startFakeDiscord();
  });
  afterAll(async () => {
    await discord.close();
    await database.close();
  });
  beforeEach(async () => {
    await database.db.delete(outbox);
    discord.setMode("normal");
    discord.requests.length = 0;
  });
  // A generous wait for the fake's answers: a loaded machine can take a second to answer on loopback.
  const channel = () => createDiscordChannel({ webhookUrl: `${discord.url}/api/webhooks/1/t`, timeoutMs: 10_000 });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("delivers every job once the target is back after being down", async () => {
    for (const name of ["A", "B", "C"]) await enqueueNotification(database.db, notification(name), ["discord"], crypto.randomUUID());
    discord.setMode("down");
    const worker = createOutboxWorker(database.db, [channel()], { maxAttempts: 10, retryBaseMs: 20, random: () => 1 });
    await worker.runOnce();
    expect(discord.requests).toHaveLength(0);
    discord.setMode("normal");
    await pause(30);
    await worker.runOnce();
    expect(discord.requests.map((r) => r.body.embeds[0]!.fields[0]!.value).sort()).toEqual(["A", "B", "C"]);
    const rows = await database.db.select().from(outbox);
    expect(rows.every((row) => row.status === "delivered" && row.attempts === 2)).toBe(true);
  });

  it("honours Discord's retry_after before trying again", async () => {
    await enqueueNotification(database.db, notification("A"), ["discord"], crypto.randomUUID());
    // Long enough that the second look comes before it ends, even on a loaded machine.
    discord.setMode("rate-limited", { retryAfterSeconds: 2 });
    const worker = createOutboxWorker(database.db, [channel()], { maxAttempts: 10, retryBaseMs: 1 });
    await worker.runOnce();
    discord.setMode("normal");
    expect(await worker.runOnce()).toBe(0); // still waiting
    await pause(2_050);
    expect(await worker.runOnce()).toBe(1);
    expect(discord.requests).toHaveLength(1);
  });

  it("marks a job failed after N attempts at a target that never answers well", async () => {
    await enqueueNotification(database.db, notification("A"), ["discord"], crypto.randomUUID());
    discord.setMode("down");
    const worker = createOutboxWorker(database.db, [channel()], { maxAttempts: 4, retryBaseMs: 1, random: () => 0 });
    const attemptsBefore = discord.attempts;
    for (let i = 0; i < 6; i++) {
      await worker.runOnce();
      await pause(10);
    }
    expect(discord.attempts - attemptsBefore).toBe(4);
    const [job] = await database.db.select().from(outbox);
    expect(job).toMatchObject({ status: "failed", attempts: 4, lastError: "Discord answered 503" });
  });
});
