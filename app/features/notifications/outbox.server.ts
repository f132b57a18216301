/**
 * The notification outbox: jobs are inserted with the application that caused them (one
 * transaction), then delivered by a worker in each server process. Delivery is at-least-once:
 * a worker leases a batch (`locked_until`) in a short transaction, delivers without holding any
 * database lock (PGlite has one connection: a transaction held across an HTTP call would stall
 * every page), then records the outcome. A crashed worker's lease runs out and the job is taken
 * again; `FOR UPDATE SKIP LOCKED` keeps two processes from leasing the same job at once.
 *
 * Each service is a lane of its own (VRChat, Discord, Telegram, Google): a slow or rate-limited
 * service holds up only its own jobs, and one that asks us to slow down (429) gets none of its jobs
 * sent until the wait it asked for has passed. Within a lane, a decision's actions (in VRChat and
 * Discord) go before notifications, review posts and the calendar, however many of those a crowd
 * has queued.
 */
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { outbox, OUTBOX_TARGETS, type OutboxRow } from "~/db/schema";
import { log } from "~/utils/log.server";
import type { ApplicationNotification, DeliveryOutcome, NotificationTarget } from "./notification";
import { failureText } from "~/utils/failure-text.server";
import { truncate } from "~/utils/text";
import { outsideRequest } from "~/utils/language.server";

export type OutboxTarget = (typeof OUTBOX_TARGETS)[number];

/**
 * Where a worker delivers jobs: a notification channel, or the actions of a decision (in VRChat,
 * in Discord), each reading its own payload.
 */
export interface OutboxChannel {
  target: OutboxTarget;
  /**
   * The longest one delivery can take, its timeouts included: a job's lease must outlast it, or
   * another worker could take the job while it is still being sent.
   */
  maxDeliveryMs?: number;
  deliver(payload: unknown): Promise<DeliveryOutcome>;
  /** What is kept of a job's payload once it is settled (sent, or given up): null keeps it whole. */
  redact?(payload: unknown): unknown;
}

type Executor = Pick<Database, "insert">;

/** Writes one job per target; call it inside the transaction that stores the application. */
export async function enqueueNotification(
  tx: Executor,
  notification: ApplicationNotification,
  targets: readonly NotificationTarget[],
  sourceId: string,
) {
  if (targets.length === 0) return;
  await tx
    .insert(outbox)
    .values(targets.map((target) => ({ target, payload: notification, sourceId })));
}

export interface OutboxOptions {
  /** Attempts before a job is marked failed. */
  maxAttempts: number;
  /** First retry delay; each later one doubles, up to `maxRetryDelayMs`, with jitter. */
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  /**
   * How long a leased job stays hidden from other workers; longer than any delivery can take.
   * By default the channels' longest delivery plus `LEASE_MARGIN_MS` (see `leaseFor`).
   */
  leaseMs?: number;
  batchSize?: number;
  pollIntervalMs?: number;
  random?: () => number;
  /** After a job is delivered, or given up on: the actions' history is written here. */
  onSettled?: (job: OutboxRow, outcome: DeliveryOutcome) => Promise<void>;
}

/** Time left, after the slowest delivery, to record its outcome before the lease runs out. */
export const LEASE_MARGIN_MS = 10_000;
/** For channels that do not say how long a delivery may take. */
const DEFAULT_LEASE_MS = 60_000;

/**
 * The lease: as short as is safe, because it is also how long the jobs of a process that died
 * mid-delivery (a crash, kill -9, a lost machine) wait before another run takes them again.
 */
export function leaseFor(channels: readonly OutboxChannel[]): number {
  if (channels.length === 0 || channels.some((channel) => channel.maxDeliveryMs === undefined)) return DEFAULT_LEASE_MS;
  return Math.max(...channels.map((channel) => channel.maxDeliveryMs!)) + LEASE_MARGIN_MS;
}

const MAX_JOBS_PER_RUN = 500;

/** What a decision does in VRChat and Discord: sent before any other job of its service. */
export const DECISION_TARGETS: readonly OutboxTarget[] = ["vrchat_membership", "vrchat_event_role", "discord_role", "discord_dm"];

/** The service a job is sent to: its lane. */
export const laneOf = (target: string) => (target.startsWith("vrchat") ? "vrchat" : target.startsWith("discord") ? "discord" : target);

/** Exponential backoff with "equal jitter": between half and all of the doubled delay. */
export function retryDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random) {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface OutboxWorker {
  /** Delivers every job due now; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  start(): void;
  /** Ask for a run soon (after an application was stored). */
  wake(): void;
  /** Stops polling and waits for the delivery under way. */
  stop(): Promise<void>;
}

export function createOutboxWorker(
  db: Database,
  channels: readonly OutboxChannel[],
  options: OutboxOptions,
): OutboxWorker {
  const {
    maxAttempts,
    retryBaseMs = 5_000,
    maxRetryDelayMs = 60 * 60 * 1000,
    leaseMs = leaseFor(channels),
    batchSize = 10,
    pollIntervalMs = 5_000,
    random = Math.random,
    onSettled,
  } = options;
  const byTarget = new Map(channels.map((channel) => [channel.target, channel]));
  const lanes = new Map<string, OutboxTarget[]>();
  for (const target of byTarget.keys()) lanes.set(laneOf(target), [...(lanes.get(laneOf(target)) ?? []), target]);
  /** Lanes whose service asked us to slow down: none of their jobs is sent before this time. */
  const pausedUntil = new Map<string, number>();
  const decisionFirst = sql`case when ${outbox.target} in ${sql.raw(`(${DECISION_TARGETS.map((t) => `'${t}'`).join(", ")})`)} then 0 else 1 end`;

  async function lease(targets: readonly OutboxTarget[], now: Date, attempted: ReadonlySet<string>): Promise<OutboxRow[]> {
    if (targets.length === 0) return [];
    const due = db
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          eq(outbox.status, "pending"),
          sql`${outbox.nextAttemptAt} <= ${now.toISOString()}::timestamptz`,
          sql`(${outbox.lockedUntil} is null or ${outbox.lockedUntil} <= ${now.toISOString()}::timestamptz)`,
          inArray(outbox.target, targets),
          attempted.size > 0 ? notInArray(outbox.id, [...attempted]) : undefined,
        ),
      )
      .orderBy(decisionFirst, outbox.nextAttemptAt)
      .limit(batchSize)
      .for("update", { skipLocked: true });
    return db
      .update(outbox)
      .set({
        lockedUntil: new Date(now.getTime() + leaseMs),
        attempts: sql`${outbox.attempts} + 1`,
      })
      .where(inArray(outbox.id, due))
      .returning();
  }

  async function record(job: OutboxRow, outcome: DeliveryOutcome) {
    const now = new Date();
    if (outcome.kind === "delivered") {
      await db
        .update(outbox)
        .set({ status: "delivered", deliveredAt: now, lockedUntil: null, lastError: null, result: outcome.result ?? null })
        .where(eq(outbox.id, job.id));
      await settled(job, outcome);
      return;
    }
    const giveUp = outcome.kind === "failed" || job.attempts >= maxAttempts;
    const delay =
      outcome.kind === "retry" && outcome.retryAfterMs !== undefined
        ? outcome.retryAfterMs
        : retryDelay(job.attempts, retryBaseMs, maxRetryDelayMs, random);
    await db
      .update(outbox)
      .set({
        status: giveUp ? "failed" : "pending",
        nextAttemptAt: new Date(now.getTime() + delay),
        lockedUntil: null,
        lastError: truncate(outcome.error, 1000),
      })
      .where(eq(outbox.id, job.id));
    const fields = { jobId: job.id, target: job.target, attempts: job.attempts, error: outcome.error };
    if (giveUp) log.error("notification failed for good", fields);
    else log.warn("notification will be retried", { ...fields, retryInMs: delay });
    if (giveUp) await settled(job, outcome);
  }

  async function settled(job: OutboxRow, outcome: DeliveryOutcome) {
    const kept = byTarget.get(job.target as OutboxTarget)?.redact?.(job.payload);
    if (kept) await db.update(outbox).set({ payload: kept }).where(eq(outbox.id, job.id)).catch((error: unknown) => log.error("a settled job could not be redacted", { error, jobId: job.id }));
    await onSettled?.(job, outcome).catch((error: unknown) => log.error("recording a job's outcome failed", { error, jobId: job.id }));
  }

  async function deliver(job: OutboxRow): Promise<DeliveryOutcome> {
    const channel = byTarget.get(job.target as OutboxTarget)!;
    let outcome: DeliveryOutcome;
    try {
      outcome = await channel.deliver(job.payload);
    } catch (error) {
      // A bug in a channel must not lose the job: retry it like a network failure.
      outcome = { kind: "retry", error: failureText(error) };
    }
    await record(job, outcome);
    return outcome;
  }

  /** One lane's due jobs, until none is left, the run's share is used, or the service asks us to slow down. */
  async function runLane(lane: string, targets: readonly OutboxTarget[], started: Date): Promise<number> {
    const attempted = new Set<string>();
    while (attempted.size < MAX_JOBS_PER_RUN && (pausedUntil.get(lane) ?? 0) <= Date.now()) {
      const jobs = await lease(targets, started, attempted);
      if (jobs.length === 0) break;
      for (const job of jobs) attempted.add(job.id);
      const outcomes = await Promise.all(jobs.map(deliver));
      const wait = Math.max(0, ...outcomes.map((outcome) => (outcome.kind === "retry" && outcome.slowDown ? (outcome.retryAfterMs ?? retryBaseMs) : 0)));
      if (wait > 0) {
        pausedUntil.set(lane, Date.now() + wait);
        log.warn("a service asked us to slow down: its jobs wait", { lane, waitMs: wait });
      }
    }
    return attempted.size;
  }

  async function runOnce() {
    // Jobs due when the run began, each once: one retried during this run waits for a later run
    // (even when its retry is due at once). One millisecond ahead, because the database keeps
    // microseconds: a job queued within the current millisecond is due too.
    const started = new Date(Date.now() + 1);
    // A long backlog is worked through over several runs, a few seconds apart; the lanes side by side.
    const done = await Promise.all([...lanes].map(([lane, targets]) => runLane(lane, targets, started)));
    return done.reduce((sum, n) => sum + n, 0);
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let again = false;
  let stopped = true;

  function schedule(delayMs: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
  }

  function tick() {
    if (running) {
      again = true;
      return;
    }
    // Whoever woke it, a run speaks the site's default language (a job names another where it needs one).
    running = outsideRequest(runOnce)
      .catch((error: unknown) => log.error("outbox run failed", { error }))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule(0);
        } else {
          schedule(pollIntervalMs);
        }
      });
  }

  return {
    runOnce,
    start() {
      stopped = false;
      schedule(0);
    },
    wake() {
      // During a run, ask for another one when it ends. A timer set now could be cleared by the
      // run's own rescheduling before it fires, and the new job would wait a whole poll interval.
      if (running) again = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * An admin's "try again" for a failed job of one of `sourceIds` (the applications they may act on):
 * back to pending, due now, attempts reset. A job of anything else is not touched.
 */
export async function retryOutboxJob(db: Database, id: string, sourceIds: (sourceId: string) => Promise<boolean>): Promise<boolean> {
  const [job] = await db.select({ sourceId: outbox.sourceId }).from(outbox).where(and(eq(outbox.id, id), eq(outbox.status, "failed")));
  if (!job?.sourceId || !(await sourceIds(job.sourceId))) return false;
  const rows = await db
    .update(outbox)
    .set({ status: "pending", attempts: 0, nextAttemptAt: new Date(), lockedUntil: null })
    .where(and(eq(outbox.id, id), eq(outbox.status, "failed")))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

export interface ChannelHealth<T extends OutboxTarget = NotificationTarget> {
  target: T;
  pending: number;
  failed: number;
  lastDeliveredAt: Date | null;
  /** When a job not yet delivered last failed to be (delivering it clears its error). */
  lastFailedAt: Date | null;
  lastError: string | null;
}

/** How each configured channel is doing, from its jobs: for the Sanctum's system status. */
export async function channelHealth<T extends OutboxTarget>(db: Database, targets: readonly T[]): Promise<ChannelHealth<T>[]> {
  if (targets.length === 0) return [];
  const rows = await db
    .select({
      target: outbox.target,
      pending: sql<number>`count(*) filter (where ${outbox.status} = 'pending')::int`,
      failed: sql<number>`count(*) filter (where ${outbox.status} = 'failed')::int`,
      lastDeliveredAt: sql<string | null>`max(${outbox.deliveredAt})`,
      lastFailedAt: sql<string | null>`max(${outbox.updatedAt}) filter (where ${outbox.lastError} is not null)`,
      lastError: sql<string | null>`(array_agg(${outbox.lastError} order by ${outbox.updatedAt} desc) filter (where ${outbox.lastError} is not null))[1]`,
    })
    .from(outbox)
    .where(inArray(outbox.target, [...targets]))
    .groupBy(outbox.target);
  return targets.map((target) => {
    const row = rows.find((r) => r.target === target);
    return {
      target,
      pending: row?.pending ?? 0,
      failed: row?.failed ?? 0,
      lastDeliveredAt: row?.lastDeliveredAt ? new Date(row.lastDeliveredAt) : null,
      lastFailedAt: row?.lastFailedAt ? new Date(row.lastFailedAt) : null,
      lastError: row?.lastError ?? null,
    };
  });
}

/** Puts every failed job of a target back in the queue; how many. */
export async function retryFailedJobs(db: Database, target: NotificationTarget): Promise<number> {
  const rows = await db
    .update(outbox)
    .set({ status: "pending", attempts: 0, nextAttemptAt: new Date(), lockedUntil: null })
    .where(and(eq(outbox.target, target), eq(outbox.status, "failed")))
    .returning({ id: outbox.id });
  return rows.length;
}

export interface JobState {
  id: string;
  sourceId: string;
  target: OutboxTarget;
  status: "pending" | "delivered" | "failed";
  result: string | null;
  lastError: string | null;
  attempts: number;
  nextAttemptAt: string;
}

/** The jobs of these applications for these targets, oldest first: what the review cards show. */
export async function listJobsFor(db: Database, sourceIds: readonly string[], targets: readonly OutboxTarget[]): Promise<JobState[]> {
  if (sourceIds.length === 0 || targets.length === 0) return [];
  const rows = await db
    .select({
      id: outbox.id,
      sourceId: outbox.sourceId,
      target: outbox.target,
      status: outbox.status,
      result: outbox.result,
      lastError: outbox.lastError,
      attempts: outbox.attempts,
      nextAttemptAt: outbox.nextAttemptAt,
    })
    .from(outbox)
    .where(and(inArray(outbox.sourceId, [...sourceIds]), inArray(outbox.target, [...targets])))
    .orderBy(outbox.createdAt);
  return rows.map((row) => ({
    ...row,
    sourceId: row.sourceId!,
    target: row.target as OutboxTarget,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
  }));
}
