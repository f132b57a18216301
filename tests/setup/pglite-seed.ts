/**
 * A server's data folder seeded with a copy of the run's migrated template (see pglite-template.ts).
 * Its own module, of Node's modules only: the benchmarks start servers with plain `node`, which
 * cannot read the template module's path aliases.
 */
import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { PGLITE_FOLDER } from "../../server/backup.ts";

/** Where the run's template lives; the global setup sets it, test processes inherit it. */
export const TEMPLATE_ENV = "DWELL_TEST_PGLITE_TEMPLATE";
/** A folder `npm test` gives every suite it starts, where the first makes the template they share. */
export const SHARED_TEMPLATE_ENV = "DWELL_TEST_SHARED_PGLITE_TEMPLATE";

/** Copies the template's database into `dataDir` when there is a template and no database yet. */
export function seedServerDatabase(dataDir: string): void {
  const dir = process.env[TEMPLATE_ENV];
  const target = join(dataDir, PGLITE_FOLDER);
  if (!dir || existsSync(target)) return;
  cpSync(join(dir, PGLITE_FOLDER), target, { recursive: true });
}
