import { makePgliteTemplate } from "../setup/pglite-template";

/** The run's migrated PGlite template, copied by each site a spec starts of its own (see pglite-template.ts). */
export default async function globalSetup() {
  return makePgliteTemplate();
}
