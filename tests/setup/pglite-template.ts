/**
 * A migrated embedded database, made once per test run and copied by every test that needs one.
 *
 * Creating a PGlite database runs PostgreSQL's initdb inside WebAssembly: 7–13 s on two busy cores,
 * where opening a copy of one already made takes 1.5 s. A run creates well over a hundred databases
 * (one or more per test file, one per server a test starts), so the copies are most of what keeps
 * `npm test` short. The template holds exactly what the app's migrations make, nothing else: a test
 * that copies it meets the database a site has after its first start.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { migrateDatabase, openPglite, wrapPglite, type DatabaseHandle } from "~/db/db.server";
import { PGLITE_FOLDER } from "../../server/backup";

import { TEMPLATE_ENV } from "./pglite-seed";

/** Makes the template (a database folder and its tar image) and returns how to remove it. */
export async function makePgliteTemplate(): Promise<() => void> {
  if (process.env[TEMPLATE_ENV]) return () => {};
  const dir = mkdtempSync(join(tmpdir(), "dwell-test-template-"));
  const pglite = await PGlite.create(join(dir, PGLITE_FOLDER));
  await migrateDatabase(wrapPglite(pglite));
  // The in-memory copies load a tar image of the same folder.
  const image = await pglite.dumpDataDir("none");
  await pglite.close();
  writeFileSync(join(dir, "image.tar"), Buffer.from(await image.arrayBuffer()));
  process.env[TEMPLATE_ENV] = dir;
  return () => {
    delete process.env[TEMPLATE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}

/** An in-memory database copied from the template (made from scratch when there is none). */
export async function openMigratedPglite(): Promise<DatabaseHandle> {
  const dir = process.env[TEMPLATE_ENV];
  const handle =
    dir && existsSync(join(dir, "image.tar"))
      ? wrapPglite(await PGlite.create({ loadDataDir: new Blob([readFileSync(join(dir, "image.tar"))]) }))
      : await openPglite(null);
  // A no-op on a copy of the template; the whole work on a new database.
  await migrateDatabase(handle);
  return handle;
}

