/**
 * The Node flags of every process the tests start on the embedded database (the servers, the Vitest
 * workers): V8's first WebAssembly compiler only. The database's engine is a 9 MB WebAssembly module,
 * and the optimising compiler's work on it in a process's first seconds (about 3 core-seconds and
 * 500 MB of memory taken and given back, for each start) never pays back in a process that lives
 * a minute (decision 030). The code it runs is the same; only how fast its hot parts run differs.
 */
export const TEST_NODE_FLAGS = ["--liftoff-only"];
