/**
 * A crowd at the door is not a flood. Past the site-wide ceiling (RATE_LIMIT_APPLICATIONS_SITE a
 * minute), a submission is let through only with a solved proof of work (ALTCHA's protocol, by
 * altcha-lib): the form carries a challenge, signed by the site and bound to the client it was
 * served to, and its script solves it while the person fills the form in (about half a second of
 * the browser's time). A person with a browser never notices; a script must pay that work for every
 * post, once each (a solution is single-use). Without JavaScript the ceiling still holds, and the
 * page says when to try again. Solved posts have a ceiling of their own, far above, so paid-for
 * floods cannot take the site's capacity either.
 *
 * The challenge is made in "deterministic" mode: the site picks the counter the browser must find
 * and signs the derived key, so checking a solution costs two HMACs, not a key derivation.
 */
import { createHmac, randomInt } from "node:crypto";
import { createChallenge, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { z } from "zod";

export const CROWD_FIELD = "crowd_proof";
export const CROWD_ALGORITHM = "PBKDF2/SHA-256";
const ROUNDS = 1_000;
/** A challenge outlives a long form: filled in slowly, it is still good. */
const VALID_MS = 3 * 60 * 60_000;
/**
 * Solved posts a minute, as a multiple of the ceiling where the challenge starts: with the default
 * ceiling (60), 6,000 a minute, about what one process takes in at the peak (part 5 of the benchmark
 * measured about 60 a second with latency to spare).
 */
export const SOLVED_CEILING_FACTOR = 100;

/** The site's two signing keys for challenges, derived from its secret. */
function keys(secret: string) {
  const derive = (purpose: string) => createHmac("sha256", secret).update(`crowd-challenge:${purpose}`).digest("base64url");
  return { hmacSignatureSecret: derive("challenge"), hmacKeySignatureSecret: derive("key") };
}

/**
 * A challenge for a form served now to `client`, as the form carries it (JSON in base64url); null when the
 * challenge is off (`work` 0). The browser tries on average `work` counters to find the site's.
 */
export async function issueCrowdChallenge(secret: string, client: string, now: Date, work: number): Promise<string | null> {
  if (work < 1) return null;
  const challenge = await createChallenge({
    algorithm: CROWD_ALGORITHM,
    cost: ROUNDS,
    counter: randomInt(Math.floor(work / 2), Math.floor(work * 1.5) + 1),
    deriveKey,
    expiresAt: new Date(now.getTime() + VALID_MS),
    data: { client },
    ...keys(secret),
  });
  // base64url: the page carries it as it is (in an attribute, in its data), unescaped.
  return Buffer.from(JSON.stringify(challenge)).toString("base64url");
}

const ProofSchema = z.object({
  challenge: z.object({
    parameters: z.object({
      algorithm: z.literal(CROWD_ALGORITHM),
      nonce: z.string().max(64),
      salt: z.string().max(64),
      cost: z.literal(ROUNDS),
      keyLength: z.number().int().min(8).max(64),
      keyPrefix: z.string().max(128),
      keySignature: z.string().max(128).optional(),
      expiresAt: z.number().optional(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    }),
    signature: z.string().max(128),
  }),
  solution: z.object({ counter: z.number().int().min(0), derivedKey: z.string().max(128), time: z.number().optional() }),
});

export type ProofCheck = "solved" | "missing" | "invalid" | "expired" | "used" | "other-client";

/** A posted proof read: what is wrong with it, or the key its single use is counted under. */
export type ProofReading = { kind: "missing" | "invalid" | "expired" | "other-client" } | { kind: "valid"; use: ProofUse };
/** Where a proof's use is counted: its nonce, in the window of its expiry (the same for every post of it). */
export interface ProofUse {
  key: string;
  windowMs: number;
  at: Date;
}

/** Whether a posted proof is a solution of a challenge this site gave this client (no database: two HMACs). */
export async function readCrowdProof(secret: string, client: string, posted: unknown, now: Date): Promise<ProofReading> {
  if (typeof posted !== "string" || posted === "") return { kind: "missing" };
  if (posted.length > 4_000) return { kind: "invalid" };
  let proof;
  try {
    proof = ProofSchema.safeParse(JSON.parse(Buffer.from(posted, "base64url").toString("utf8")));
  } catch {
    return { kind: "invalid" };
  }
  if (!proof.success) return { kind: "invalid" };
  const { challenge, solution } = proof.data;
  const result = await verifySolution({ challenge, solution, deriveKey, ...keys(secret) });
  if (result.expired) return { kind: "expired" };
  if (!result.verified) return { kind: "invalid" };
  if (challenge.parameters.data?.client !== client) return { kind: "other-client" };
  // Kept (a day past its window) until it has expired.
  const expiresAt = new Date((challenge.parameters.expiresAt ?? now.getTime() / 1000) * 1000);
  return { kind: "valid", use: { key: `crowd-proof:${challenge.parameters.nonce}`, windowMs: VALID_MS, at: expiresAt } };
}

/** A reading and how many times its proof has now been used: what the ceiling's check concludes. */
export function proofVerdict(reading: ProofReading, uses: number | null): ProofCheck {
  if (reading.kind !== "valid") return reading.kind;
  return uses === 1 ? "solved" : "used";
}
