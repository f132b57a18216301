/**
 * An applicant proves that a VRChat account is theirs: Dwell gives a short code, they put it in the
 * account's bio (or status), and Dwell reads that account once to find it. A proven link is the
 * strongest there is: it replaces a link made by name, and a decision already made then acts on it.
 *
 * The account to prove is the one the application already names: a staff member's choice, else the
 * profile link the applicant gave, else the account matched by their name. Nothing an applicant
 * types here chooses another. Each check reads VRChat from the visitors' allowance (never the
 * staff's), at most PROOF_CHECKS_PER_HOUR times an hour per application.
 */
import { randomInt } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import type { ApplicationKind, ApplicationStatus } from "~/db/enums";
import { vrchatProofs } from "~/db/schema";
import { listLinkTargets, type LinkTarget } from "~/features/applications/linked-accounts.server";
import { getApplicationStatus } from "~/features/decisions/decisions.server";
import { profileUrl } from "~/features/vrchat/vrchat-membership.server";
import { LookupBudgetError } from "~/utils/lookup-cache.server";
import { log } from "~/utils/log.server";
import { giveBackHit, hitRateLimit } from "~/utils/rate-limit.server";
import { VRChatError } from "~/features/vrchat/vrchat-error";
import { PROOF_CHECKS_PER_HOUR, PROOF_HOURS, PROOF_TEXTS, type ProofAccount, type ProofView } from "~/features/applications/proof";
import { linkProvenAccount, type DecideServices } from "./decide.server";

/** Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L). */
const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const CODE_LENGTH = 4;

/** An application is open to proof until it is rejected or withdrawn. */
const OPEN: readonly ApplicationStatus[] = ["pending", "waitlist", "approved"];

/** The account an application names to be proven (see the file's comment), or null. */
export function accountToProve(target: Pick<LinkTarget, "vrchatUserId" | "vrchatLinkedHow" | "claimedVRChatUserId">): string | null {
  if (target.vrchatUserId && target.vrchatLinkedHow === "staff") return target.vrchatUserId;
  return target.claimedVRChatUserId ?? target.vrchatUserId;
}

export function newProofCode(): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `dwell-${code}`;
}

/** Whether the code stands in the text as a word of its own (any case): `xdwell-4KQ7` does not count. */
export function textHoldsCode(text: string, code: string): boolean {
  const escaped = code.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^A-Za-z0-9_-])${escaped}(?![A-Za-z0-9_-])`, "i").test(text);
}

interface Opened {
  kind: ApplicationKind;
  id: string;
  eventId: string | null;
  status: ApplicationStatus;
  target: LinkTarget;
}

async function openByToken(db: Database, token: string, now: Date): Promise<Opened | null> {
  const status = await getApplicationStatus(db, token, now);
  if (!status) return null;
  const [target] = await listLinkTargets(db, status.kind, [status.id]);
  if (!target) return null;
  return { kind: status.kind, id: status.id, eventId: status.eventId, status: status.status, target };
}

async function proofOf(db: Pick<Database, "select">, application: { kind: ApplicationKind; id: string }) {
  const [row] = await db
    .select()
    .from(vrchatProofs)
    .where(and(eq(vrchatProofs.applicationKind, application.kind), eq(vrchatProofs.applicationId, application.id)));
  return row ?? null;
}

const accountOf = (userId: string, displayName: string | null): ProofAccount => ({ userId, displayName, profileUrl: profileUrl(userId) });

/** What the status page shows about proof (reads only). */
export async function proofView(db: Database, application: { kind: ApplicationKind; id: string; status: ApplicationStatus }, now: Date): Promise<ProofView> {
  const [target] = await listLinkTargets(db, application.kind, [application.id]);
  if (!target) return { kind: "none" };
  if (target.vrchatLinkedHow === "proven") return { kind: "proven", displayName: target.vrchatDisplayName };
  if (!OPEN.includes(application.status)) return { kind: "none" };
  const userId = accountToProve(target);
  if (!userId) return { kind: "none" };
  const proof = await proofOf(db, application);
  const account = accountOf(userId, target.vrchatUserId === userId ? target.vrchatDisplayName : null);
  if (!proof || proof.vrchatUserId !== userId) return { kind: "offer", account, expired: false };
  if (proof.expiresAt <= now) return { kind: "offer", account, expired: true };
  return { kind: "code", account, code: proof.code, expiresAt: proof.expiresAt.toISOString() };
}

type Refusal = { kind: "refused"; status: 404 | 409 | 429 | 503; message: string };
const refused = (status: Refusal["status"], message: string): Refusal => ({ kind: "refused", status, message });

/** The application behind a status link, and the account it has to prove; or why there is none. */
async function toProve(db: Database, token: string, now: Date): Promise<{ kind: "found"; opened: Opened; userId: string } | Refusal> {
  const opened = await openByToken(db, token, now);
  if (!opened) return refused(404, "");
  if (opened.target.vrchatLinkedHow === "proven") return refused(409, PROOF_TEXTS.proven());
  if (!OPEN.includes(opened.status)) return refused(409, PROOF_TEXTS.notOpen());
  const userId = accountToProve(opened.target);
  if (!userId) return refused(409, PROOF_TEXTS.nothingToProve());
  return { kind: "found", opened, userId };
}

export type StartOutcome = { kind: "started"; code: string } | Refusal;

/**
 * 'Prove this account is yours': the application's code for its account, kept while it is valid; a
 * new one when there was none, it expired, or the account to prove changed.
 */
export async function startProof(db: Database, token: string, now: Date): Promise<StartOutcome> {
  const found = await toProve(db, token, now);
  if (found.kind === "refused") return found;
  const { opened, userId } = found;
  const existing = await proofOf(db, opened);
  if (existing && existing.vrchatUserId === userId && existing.expiresAt > now && !existing.provenAt) return { kind: "started", code: existing.code };
  const fresh = { vrchatUserId: userId, code: newProofCode(), expiresAt: new Date(now.getTime() + PROOF_HOURS * 60 * 60 * 1000), provenAt: null, createdAt: now };
  await db
    .insert(vrchatProofs)
    .values({ applicationKind: opened.kind, applicationId: opened.id, ...fresh })
    .onConflictDoUpdate({ target: [vrchatProofs.applicationKind, vrchatProofs.applicationId], set: fresh });
  return { kind: "started", code: fresh.code };
}

export type CheckOutcome = { kind: "proven"; displayName: string; acting: boolean } | Refusal;

/** 'Check': reads the account once and, when the code is in its bio or status, links it as proven. */
export async function checkProof(services: DecideServices, token: string, now: Date): Promise<CheckOutcome> {
  const { db } = services;
  const found = await toProve(db, token, now);
  if (found.kind === "refused") return found;
  const { opened, userId } = found;
  const proof = await proofOf(db, opened);
  if (!proof || proof.vrchatUserId !== userId) return refused(409, PROOF_TEXTS.noCode());
  if (proof.expiresAt <= now) return refused(409, PROOF_TEXTS.expired());
  const membership = services.vrchat.membership;
  if (!membership) return refused(503, PROOF_TEXTS.unreachable());
  // Counted as it is made (so that presses at once cannot pass the limit together), and given back
  // when it never reached VRChat: a busy allowance or an unreachable VRChat costs the applicant nothing.
  const counted = { key: `proof-checks:${opened.kind}:${opened.id}`, windowMs: 60 * 60_000, now };
  const allowed = await hitRateLimit(db, { ...counted, limit: PROOF_CHECKS_PER_HOUR });
  if (!allowed.allowed) {
    await giveBackHit(db, counted);
    return refused(429, PROOF_TEXTS.checksSpent());
  }
  let profile;
  try {
    profile = await membership.readProfileText(userId);
  } catch (error) {
    if (error instanceof LookupBudgetError || (error instanceof VRChatError && error.notSent)) await giveBackHit(db, counted);
    if (error instanceof LookupBudgetError) return refused(429, PROOF_TEXTS.busy());
    log.warn("VRChat could not be asked for an applicant's proof", { error: error instanceof Error ? error.message : String(error) });
    return refused(503, PROOF_TEXTS.unreachable());
  }
  if (!profile) return refused(409, PROOF_TEXTS.unknownAccount());
  if (!textHoldsCode(profile.text, proof.code)) return refused(409, PROOF_TEXTS.notFound());
  const linked = await linkProvenAccount(
    services,
    { kind: opened.kind, id: opened.id, eventId: opened.eventId },
    { userId, displayName: profile.displayName },
    { name: "the applicant (a code in their VRChat bio)" },
  );
  await db
    .update(vrchatProofs)
    .set({ provenAt: now })
    .where(and(eq(vrchatProofs.applicationKind, opened.kind), eq(vrchatProofs.applicationId, opened.id)));
  if (linked.kind !== "linked") return refused(404, "");
  return { kind: "proven", displayName: linked.displayName, acting: linked.acting };
}
