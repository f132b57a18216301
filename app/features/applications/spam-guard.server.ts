/**
 * What stops a script, not a person, at the public application forms, without JavaScript:
 * - a honeypot: a text field hidden from sight and from assistive technology, which people leave
 *   empty and form-filling scripts fill in;
 * - a fill time: the form carries the time it was served, signed, and a post sooner than a person
 *   could fill it in is refused with a message that lets the person send it again;
 * - a site-wide ceiling per minute, beside the per-client limit, for floods from many addresses:
 *   past it, a solved proof of work lets a person through (see crowd-challenge.server.ts).
 * Refusals are counted per hour (in the rate-limit table) for the Sanctum's dashboard.
 */
import { m } from "~/paraglide/messages";
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, like, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { rateLimits } from "~/db/schema";
import { countHit, rateLimitCount, windowOf } from "~/utils/rate-limit.server";
import type { ProofUse } from "./crowd-challenge.server";

export const HONEYPOT_FIELD = "website";
export const STARTED_FIELD = "form_started";
/** A form served longer ago than this is no proof of anything: served again with a new time. */
const STARTED_VALID_MS = 24 * 60 * 60_000;

export const tooQuickMessage = () => m.spam_too_quick();
export const honeypotMessage = () => m.spam_honeypot();
export const siteBusyMessage = () => m.spam_site_busy();
export const crowdRetryMessage = () => m.spam_crowd_retry();

const COUNT_WINDOW_MS = 60 * 60_000;
const SITE_WINDOW_MS = 60_000;
export const SITE_CEILING_KEY = "applications:site";
type Refusal = "honeypot" | "too-quick" | "site-ceiling" | "client-limit" | "duplicate" | "probe-limit";

/**
 * The duplicate answer ("You have already submitted…") tells whether a name has applied. A person
 * meets it once or twice; someone testing names meets it again and again. Past RATE_LIMIT_DUPLICATES
 * in an hour from one client, its posts are refused before they are looked at, with the rate-limit
 * message, which tells nothing about any name.
 */
const DUPLICATE_WINDOW_MS = 60 * 60_000;
const duplicateKey = (client: string) => `duplicates:${client}`;

/** Whether this client has met the duplicate answer too often this hour to be given it again. */
export async function probingTooMuch(db: Database, client: string, perHour: number, now: Date): Promise<boolean> {
  return (await rateLimitCount(db, { key: duplicateKey(client), windowMs: DUPLICATE_WINDOW_MS, now })) >= perHour;
}

/** Counts a duplicate answer given to this client (and, for the dashboard, in all). */
export async function countDuplicate(db: Database, client: string, now: Date) {
  await countHit(db, { key: duplicateKey(client), windowMs: DUPLICATE_WINDOW_MS, now });
  await countRefusal(db, "duplicate", now);
}

// The token is bound to the client it was served to (its address, or /64): one fetched once cannot
// be replayed from the many addresses of a flood.
function signature(secret: string, issuedAt: number, client: string) {
  return createHmac("sha256", secret).update(`form-started:${issuedAt}:${client}`).digest("base64url");
}

/** The value of the form's hidden `form_started` field: when it was served, and to whom, signed. */
export function formStartedToken(secret: string, now: Date, client: string): string {
  const issuedAt = now.getTime();
  return `${issuedAt}.${signature(secret, issuedAt, client)}`;
}

/** When the form was served, if the token is this site's own, recent, and served to this client; otherwise null. */
export function formStartedAt(secret: string, token: unknown, now: Date, client: string): number | null {
  if (typeof token !== "string") return null;
  const match = /^(\d{1,15})\.([\w-]{43})$/.exec(token);
  if (!match) return null;
  const issuedAt = Number(match[1]);
  const expected = Buffer.from(signature(secret, issuedAt, client));
  const given = Buffer.from(match[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (issuedAt > now.getTime() + 5_000 || now.getTime() - issuedAt > STARTED_VALID_MS) return null;
  return issuedAt;
}

export type SpamCheck = { ok: true } | { ok: false; status: 400 | 429; message: string; refusal: Refusal };

/** The honeypot and the fill time, for a posted form. `minFillMs` 0 turns the fill time off. */
export function checkFormFilling(
  form: FormData,
  { secret, minFillMs, now, client }: { secret: string; minFillMs: number; now: Date; client: string },
): SpamCheck {
  const honeypot = form.get(HONEYPOT_FIELD);
  if (typeof honeypot === "string" && honeypot.trim() !== "") {
    return { ok: false, status: 400, message: honeypotMessage(), refusal: "honeypot" };
  }
  if (minFillMs > 0) {
    const startedAt = formStartedAt(secret, form.get(STARTED_FIELD), now, client);
    if (startedAt === null || now.getTime() - startedAt < minFillMs) {
      return { ok: false, status: 400, message: tooQuickMessage(), refusal: "too-quick" };
    }
  }
  return { ok: true };
}

/** How a submission stands against the counted limits, from one statement (see admitSubmission). */
export interface Admission {
  /** This client's submissions in its window, this one included. */
  clientCount: number;
  /** Duplicate answers this client met this hour. */
  duplicatesMet: number;
  /** This minute's submissions from everyone, this one included; null when it was not counted. */
  siteCount: number | null;
  /** Past the ceiling, the uses of the post's proof of work, this one included; null when not counted. */
  proofUses: number | null;
}

const CLIENT_WINDOW_MS = 10 * 60_000;

/**
 * A submission's three counted checks in one statement, one round trip at the peak: it counts the
 * post against its client's limit, reads how often the client met the duplicate answer this hour,
 * and, only when the client is within both (junk and a client past its limit do not spend it),
 * counts it in the minute's site-wide count; past the ceiling, it also uses up the post's proof of
 * work (its nonce counted: a solution is good once).
 */
export async function admitSubmission(
  db: Database,
  {
    client,
    clientLimit,
    duplicatesLimit,
    siteCeiling,
    proof,
    now,
  }: { client: string; clientLimit: number; duplicatesLimit: number; siteCeiling: number; proof?: ProofUse; now: Date },
): Promise<Admission> {
  const clientKey = `applications:${client}`;
  const clientWindow = windowOf(CLIENT_WINDOW_MS, now);
  const siteWindow = windowOf(SITE_WINDOW_MS, now);
  const duplicatesWindow = windowOf(DUPLICATE_WINDOW_MS, now);
  const result = (await db.execute(sql`
    with client_hit as (
      insert into ${rateLimits} (key, window_start, count) values (${clientKey}, ${clientWindow.toISOString()}::timestamptz, 1)
      on conflict (key, window_start) do update set count = ${rateLimits}.count + 1
      returning count
    ),
    duplicates as (
      select coalesce((select count from ${rateLimits} where key = ${duplicateKey(client)} and window_start = ${duplicatesWindow.toISOString()}::timestamptz), 0) as met
    ),
    site_hit as (
      insert into ${rateLimits} (key, window_start, count)
      select ${SITE_CEILING_KEY}, ${siteWindow.toISOString()}::timestamptz, 1
      where (select count from client_hit) <= ${clientLimit} and (select met from duplicates) < ${duplicatesLimit}
      on conflict (key, window_start) do update set count = ${rateLimits}.count + 1
      returning count
    ),
    proof_hit as (
      insert into ${rateLimits} (key, window_start, count)
      select ${proof?.key ?? ""}, ${windowOf(proof?.windowMs ?? SITE_WINDOW_MS, proof?.at ?? now).toISOString()}::timestamptz, 1
      where ${proof !== undefined}::boolean and (select count from site_hit) > ${siteCeiling}
      on conflict (key, window_start) do update set count = ${rateLimits}.count + 1
      returning count
    )
    select (select count from client_hit)::int as client_count, (select met from duplicates)::int as duplicates_met,
      (select count from site_hit)::int as site_count, (select count from proof_hit)::int as proof_uses
  `)) as unknown as { rows: { client_count: number; duplicates_met: number; site_count: number | null; proof_uses: number | null }[] };
  const row = result.rows[0]!;
  return { clientCount: row.client_count, duplicatesMet: row.duplicates_met, siteCount: row.site_count, proofUses: row.proof_uses };
}

/** When a client's window ends: for a Retry-After once it is past its limit. */
export function clientRetryAfterMs(now: Date): number {
  return windowOf(CLIENT_WINDOW_MS, now).getTime() + CLIENT_WINDOW_MS - now.getTime();
}

/** Counts a refusal for the dashboard (one row per kind and hour). */
export async function countRefusal(db: Database, refusal: Refusal, now: Date) {
  await countHit(db, { key: `refused:${refusal}`, windowMs: COUNT_WINDOW_MS, now });
}

/** Refusals in the last 24 hours by kind, and the minutes in which the site-wide ceiling was passed. */
export async function spamDefenceFigures(db: Database, siteCeiling: number, now: Date) {
  const since = new Date(now.getTime() - 24 * 60 * 60_000);
  const rows = await db
    .select({ key: rateLimits.key, total: sql<number>`sum(${rateLimits.count})::int` })
    .from(rateLimits)
    .where(and(like(rateLimits.key, "refused:%"), gt(rateLimits.windowStart, since)))
    .groupBy(rateLimits.key);
  const [ceiling] = await db
    .select({ minutes: sql<number>`count(*)::int`, last: sql<Date | null>`max(${rateLimits.windowStart})` })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, SITE_CEILING_KEY), gt(rateLimits.windowStart, since), gt(rateLimits.count, siteCeiling)));
  const refused = Object.fromEntries(rows.map((row) => [row.key.slice("refused:".length), row.total])) as Partial<Record<Refusal, number>>;
  const last = ceiling?.last ? new Date(ceiling.last) : null;
  return { refused, ceilingMinutes: ceiling?.minutes ?? 0, ceilingLastHitAt: last };
}
