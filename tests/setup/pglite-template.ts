/**
 * A migrated embedded database, made once per test run and copied by every test that needs one.
 *
 * Creating a PGlite database runs PostgreSQL's initdb inside WebAssembly: 7–13 s on two busy cores,
 * where opening a copy of one already made takes 1.5 s. A run creates well over a hundred databases
 * (one or more per test file, one per server a test starts), so the copies are most of what keeps
 * `npm test` short. The template holds exactly what the app's migrations make, nothing else: a test
 * that copies it meets the database a site has after its first start.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PGlite } from "@electric-sql/pglite";
import { migrateDatabase, openPglite, wrapPglite, type DatabaseHandle } from "~/db/db.server";
import { PGLITE_FOLDER } from "../../server/backup";
import { PglitePool } from "./pglite-pool";
import { SHARED_TEMPLATE_ENV, TEMPLATE_ENV } from "./pglite-seed";

/** Makes the template (a database folder and its tar image) and returns how to remove it. */
export async function makePgliteTemplate(): Promise<() => void> {
  if (process.env[TEMPLATE_ENV]) return () => {};
  const shared = process.env[SHARED_TEMPLATE_ENV];
  if (shared) {
    process.env[TEMPLATE_ENV] = await sharedTemplate(shared);
    // `npm test` removes it when every suite is done.
    return () => {
      delete process.env[TEMPLATE_ENV];
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "dwell-test-template-"));
  await writeTemplate(dir);
  process.env[TEMPLATE_ENV] = dir;
  return () => {
    delete process.env[TEMPLATE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}

async function writeTemplate(dir: string) {
  const pglite = await PGlite.create(join(dir, PGLITE_FOLDER));
  await migrateDatabase(wrapPglite(pglite));
  // The in-memory copies load a tar image of the same folder.
  const image = await pglite.dumpDataDir("none");
  await pglite.close();
  writeFileSync(join(dir, "image.tar"), Buffer.from(await image.arrayBuffer()));
}

/** How long a suite waits for the template another suite is making, which is still running, before it fails. */
const SHARED_WAIT_MS = 5 * 60 * 1000;

/**
 * One template for every suite of an `npm test` run (the Vitest suites, the event night's file and
 * both browser runs start apart, two of them at the same moment). The first to claim the folder makes
 * the template and moves it into place whole; the others wait for it. If the maker fails, the claim
 * is given back and the next suite makes it.
 */
export async function sharedTemplate(shared: string, write: (dir: string) => Promise<void> = writeTemplate): Promise<string> {
  const ready = join(shared, "template");
  const claim = join(shared, "making");
  const waitUntil = Date.now() + SHARED_WAIT_MS;
  while (!existsSync(ready)) {
    if (claimed(claim)) {
      const dir = mkdtempSync(join(shared, "part-"));
      try {
        await write(dir);
        renameSync(dir, ready);
      } finally {
        rmSync(claim, { recursive: true, force: true });
        rmSync(dir, { recursive: true, force: true });
      }
      break;
    }
    if (makerGone(claim)) rmSync(claim, { recursive: true, force: true });
    else if (Date.now() > waitUntil) throw new Error(`No PGlite template appeared in ${shared} within ${SHARED_WAIT_MS / 1000} s`);
    await sleep(100);
  }
  return ready;
}

function claimed(claim: string): boolean {
  try {
    mkdirSync(claim);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  writeFileSync(join(claim, "pid"), String(process.pid));
  return true;
}

/** The claim's maker ended without giving it back (killed): its pid no longer runs. */
function makerGone(claim: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(claim, "pid"), "utf8"));
  } catch {
    return false; // just claimed, or just given back
  }
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Copies of the template this process's tests closed, kept for its next tests (pglite-pool.ts), with the template's folder. */
let pool: { dir: string; copies: PglitePool } | undefined;

/** An in-memory database copied from the template (made from scratch when there is none). */
export async function openMigratedPglite(): Promise<DatabaseHandle> {
  const dir = process.env[TEMPLATE_ENV];
  if (dir && existsSync(join(dir, "image.tar"))) {
    // A process told of another template (a suite that made its own) gets copies of that one.
    if (pool?.dir !== dir) pool = { dir, copies: new PglitePool(() => PGlite.create({ loadDataDir: new Blob([readFileSync(join(dir, "image.tar"))]) })) };
    return pool.copies.take();
  }
  const handle = await openPglite(null);
  await migrateDatabase(handle);
  return handle;
}

