import { makePgliteTemplate } from "./pglite-template";

/** Vitest's global setup: the run's migrated PGlite template (see pglite-template.ts). */
export async function setup() {
  return makePgliteTemplate();
}
