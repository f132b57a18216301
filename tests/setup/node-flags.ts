/**
 * The Node flags of every process the tests start on the embedded database (the servers, the Vitest
 * workers): V8's first WebAssembly compiler only. The database's engine is a 9 MB WebAssembly module,
 * and the optimising compiler's work on it in a process's first seconds (about 3 core-seconds and
 * 500 MB of memory taken and given back, for each start) never pays back in a process that lives
 * a minute (decision 030). The code it runs is the same; only how fast its hot parts run differs.
 */
export const TEST_NODE_FLAGS = ["--liftoff-only"];

/**
 * The embedded database's page cache in the tests' processes, in MB (PGLITE_SHARED_BUFFERS_MB): PGlite
 * sets its whole cache aside and clears it as it starts, 128 MB by default, while a test's database
 * holds a few. A server's start from a copied database touched 87,000 pages of new memory with 128
 * and 56,000 with 16, and took 1.84-1.91 core-seconds against 2.16-2.27 (decision 030). Queries give
 * the same answers with either.
 */
export const TEST_PGLITE_SHARED_BUFFERS_MB = 16;

/**
 * The environment of a Node process a test starts (a server, an account or backup command): only
 * what the test gives it, the PATH, the database's page cache above, and the compile cache `npm test` keeps for the run
 * (NODE_COMPILE_CACHE, scripts/test.ts). With it, the hundred-odd processes of a run compile the
 * server bundle and its libraries once between them rather than each: a server's start took 2.15-2.36
 * core-seconds instead of 2.46-2.91 (decision 030). The site runs the same code either way.
 */
export function testProcessEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const cache = process.env.NODE_COMPILE_CACHE;
  return {
    PATH: process.env.PATH,
    PGLITE_SHARED_BUFFERS_MB: String(TEST_PGLITE_SHARED_BUFFERS_MB),
    ...(cache ? { NODE_COMPILE_CACHE: cache } : {}),
    ...env,
  };
}
