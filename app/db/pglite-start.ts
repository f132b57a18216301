/**
 * How the embedded database is started, wherever it is opened (the server, the backup and restore
 * commands). Plain Node imports this module too (server/backup.ts), so it imports nothing of the app's.
 */
import { PGlite } from "@electric-sql/pglite";

/**
 * PGlite's start parameters with its page cache (PostgreSQL's shared_buffers) set to `sharedBuffersMb`
 * (PGLITE_SHARED_BUFFERS_MB): the engine sets the whole cache aside and clears it as it starts, so its
 * size is memory taken at once (128 MB by default). Without a size, PGlite's own parameters.
 */
export function pgliteStartParams(sharedBuffersMb?: number): string[] | undefined {
  if (sharedBuffersMb === undefined) return undefined;
  return [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`];
}
