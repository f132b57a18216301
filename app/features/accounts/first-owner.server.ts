/**
 * The first owner, made in the browser: while no staff account exists, each start makes a one-time
 * setup code, writes it to the server's log and to a file in the data folder that only the server's
 * user may read, and keeps its hash. Whoever holds it (the person at the server) makes the owner on
 * /admin/setup. A code works once, for 24 hours; 5 wrong tries within an hour stop that code (a
 * restart makes a new one). `npm run user:create` keeps working beside it.
 */
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { and, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { STAFF_ROLES } from "~/db/enums";
import { profiles, setupCodes, teamHistory } from "~/db/schema";
import { m } from "~/paraglide/messages";
import type { Auth } from "~/utils/auth.server";
import { isEmailAddress } from "~/utils/auth.server";
import { log } from "~/utils/log.server";
import { countHit, rateLimitCount } from "~/utils/rate-limit.server";
import { AccountError, createAccount } from "./accounts.server";
import { passwordProblem } from "./password-policy.server";

export const SETUP_CODE_FILE = "setup-code.txt";
export const SETUP_CODE_HOURS = 24;
export const SETUP_WRONG_TRIES = 5;
const HOUR = 60 * 60 * 1000;

/** Letters and digits that cannot be mistaken for one another when read off a screen. */
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Three groups of four (about 60 bits): "K7QM-2WXP-9RTA". */
function newCode(): string {
  const characters = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]!);
  return [0, 4, 8].map((at) => characters.slice(at, at + 4).join("")).join("-");
}

/** As typed: case, spaces and dashes do not matter. */
const normalised = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, "");
const hashOf = (code: string) => createHash("sha256").update(normalised(code)).digest("hex");

export async function hasStaffAccount(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: profiles.id }).from(profiles).where(inArray(profiles.role, [...STAFF_ROLES])).limit(1);
  return row !== undefined;
}

/**
 * At a start: with no staff account, a new code (the earlier ones no longer work), in the log and in
 * the data folder's file; with one, no code and no file.
 */
export async function offerFirstOwnerSetup(db: Database, dataDir: string, now: Date): Promise<string | null> {
  const file = join(dataDir, SETUP_CODE_FILE);
  if (await hasStaffAccount(db)) {
    await db.delete(setupCodes);
    await rm(file, { force: true });
    return null;
  }
  const code = newCode();
  await db.transaction(async (tx) => {
    await tx.delete(setupCodes);
    await tx.insert(setupCodes).values({ codeHash: hashOf(code), createdAt: now });
  });
  const expires = new Date(now.getTime() + SETUP_CODE_HOURS * HOUR);
  try {
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, `${code}\n`, { mode: 0o600 });
    await chmod(file, 0o600);
  } catch (error) {
    log.warn("the setup code could not be written to the data folder; it is in this log only", { error, file });
  }
  log.warn("no staff account yet: open /admin/setup in a browser and enter this one-time setup code to make the first owner", {
    setupCode: code,
    expires: expires.toISOString(),
    file,
  });
  return code;
}

export type FirstOwnerOutcome =
  | { ok: true; email: string }
  | { ok: false; status: 400 | 404 | 409 | 429; message: string; field?: "code" | "username" | "email" | "password" };

const triesKey = (codeId: string) => `setup-code:${codeId}`;

/** Makes the first owner with the setup code: the code is claimed before the account is made, and given back if that fails. */
export async function createFirstOwner(
  { db, auth, dataDir }: { db: Database; auth: Auth; dataDir: string },
  input: { code: string; username: string; email: string; password: string },
  now: Date,
): Promise<FirstOwnerOutcome> {
  if (await hasStaffAccount(db)) return { ok: false, status: 409, message: m.setup_done() };
  const [current] = await db
    .select()
    .from(setupCodes)
    .where(and(isNull(setupCodes.usedAt), gt(setupCodes.createdAt, new Date(now.getTime() - SETUP_CODE_HOURS * HOUR))))
    .orderBy(desc(setupCodes.createdAt))
    .limit(1);
  if (!current) return { ok: false, status: 404, message: m.setup_no_code(), field: "code" };
  const tries = { key: triesKey(current.id), windowMs: HOUR, now };
  if ((await rateLimitCount(db, tries)) >= SETUP_WRONG_TRIES) return { ok: false, status: 429, message: m.setup_too_many(), field: "code" };
  const given = Buffer.from(hashOf(input.code), "hex");
  if (normalised(input.code).length === 0 || !timingSafeEqual(given, Buffer.from(current.codeHash, "hex"))) {
    const wrong = await countHit(db, tries);
    log.warn("a wrong setup code was entered", { wrongTries: wrong });
    return { ok: false, status: wrong >= SETUP_WRONG_TRIES ? 429 : 400, message: wrong >= SETUP_WRONG_TRIES ? m.setup_too_many() : m.setup_wrong_code(), field: "code" };
  }
  const username = input.username.trim();
  const email = input.email.trim().toLowerCase();
  if (!username || username.length > 64) return { ok: false, status: 400, message: m.team_username(), field: "username" };
  if (!isEmailAddress(email)) return { ok: false, status: 400, message: m.setup_email(), field: "email" };
  const weak = passwordProblem(input.password);
  if (weak) return { ok: false, status: 400, message: weak, field: "password" };
  const [claimed] = await db.update(setupCodes).set({ usedAt: now }).where(and(eq(setupCodes.id, current.id), isNull(setupCodes.usedAt))).returning({ id: setupCodes.id });
  if (!claimed) return { ok: false, status: 409, message: m.setup_done() };
  let account;
  try {
    account = await createAccount(auth, { email, password: input.password, username, role: "owner" });
  } catch (error) {
    await db.update(setupCodes).set({ usedAt: null }).where(eq(setupCodes.id, current.id));
    if (error instanceof AccountError) return { ok: false, status: 400, message: error.message.replace(/^--\w+: /, ""), field: "email" };
    throw error;
  }
  await db.insert(teamHistory).values({ actorId: account.id, actorName: account.username, change: `became the first owner with the setup code (${email})` });
  await rm(join(dataDir, SETUP_CODE_FILE), { force: true });
  log.info("the first owner was made with the setup code", { userId: account.id });
  return { ok: true, email };
}

/** Once a staff account exists it is never asked again in this process (the setup is over). */
let staffSeen = false;

/** Whether the Sanctum should offer the first owner's setup instead of the sign-in. */
export async function firstOwnerNeeded(db: Database): Promise<boolean> {
  if (staffSeen) return false;
  staffSeen = await hasStaffAccount(db);
  return !staffSeen;
}
