/** Runs the real server (`node server/main.ts`, production build) as a child process. */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { TEST_NODE_FLAGS, testProcessEnv } from "./node-flags.ts";
import { seedServerDatabase } from "./pglite-seed.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerProcess {
  url: string;
  /** The address the site builds its links from: PUBLIC_URL, or without it http://localhost and its port. */
  publicUrl: string;
  process: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ExitedProcess {
  code: number | null;
  output: string;
}

function launch(env: Record<string, string>, cwd = root) {
  const child = spawn(process.execPath, [...TEST_NODE_FLAGS, "server/main.ts"], {
    cwd,
    // No shared page renderings unless a test asks: tests change events and look at once. Scripts
    // post forms at once and in numbers, too: the fill-time check and the site-wide ceiling are on
    // only where a test asks for them.
    env: testProcessEnv({
      HOST: "127.0.0.1",
      PORT: "0",
      DATABASE_URL: "",
      PAGE_CACHE_SECONDS: "0",
      FORM_MIN_FILL_SECONDS: "0",
      RATE_LIMIT_APPLICATIONS_SITE: "100000",
      ...env,
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/**
 * How long a fresh start may take. Alone it takes 3-8 s (a new embedded database, its migrations,
 * the demo content); twelve at once on a 2-core machine kept busy took 54 s each. A test hook that
 * starts a server gives it this long (see HOOK_TIMEOUT_MS), not the 30 s a test step gets.
 */
export const SERVER_START_TIMEOUT_MS = 150_000;
/** A test hook that starts servers: their start, and a little more. */
export const HOOK_TIMEOUT_MS = SERVER_START_TIMEOUT_MS + 30_000;

/** A port free on this machine now (the server is told it, so its own links name it: see PUBLIC_URL). */
async function freePort(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return String(port);
}

export interface StartOptions {
  /** Let the server create its embedded database itself (a first start from nothing). */
  newDatabase?: boolean;
}

/**
 * Starts a server and resolves once it listens; rejects with its output if it exits first. Without
 * a PORT of the test's own, it gets a free one (tried again should another process take it first),
 * so that the site's default address (`http://localhost:PORT`) is where it really is.
 */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = SERVER_START_TIMEOUT_MS,
  cwd = root,
  { newDatabase = false }: StartOptions = {},
): Promise<ServerProcess> {
  // A data folder without a database gets a copy of the migrated template (see pglite-template.ts),
  // unless the test is about the database's own first start.
  if (env.DATA_DIR && !env.DATABASE_URL && !newDatabase) seedServerDatabase(env.DATA_DIR);
  if (env.PORT !== undefined) return startOnce(env, timeoutMs, cwd);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce({ ...env, PORT: await freePort() }, timeoutMs, cwd);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes("EADDRINUSE")) throw error;
    }
  }
}

function startOnce(env: Record<string, string>, timeoutMs: number, cwd: string): Promise<ServerProcess> {
  const { child, output } = launch(env, cwd);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start within ${timeoutMs / 1000} s (an overloaded machine?); its output:\n${output()}`));
    }, timeoutMs);
    const onData = () => {
      const match = /"msg":"listening","url":"([^"]+)"/.exec(output());
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      const url = match[1]!;
      resolve({
        url,
        publicUrl: env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : `http://localhost:${new URL(url).port}`,
        process: child,
        output,
        stop: (signal = "SIGTERM") =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
            child.once("exit", (code) => done(code));
            child.kill(signal);
          }),
      });
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (code ${code}, signal ${child.signalCode}) ${((Date.now() - started) / 1000).toFixed(1)} s into its start, before listening; its output:\n${output()}`));
    });
  });
}

/** Runs the server expecting it to stop by itself (a refused start). */
export function runServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ExitedProcess> {
  const { child, output } = launch(env);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server kept running:\n${output()}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output: output() });
    });
  });
}

/**
 * Starts a server and kills it (SIGKILL, no chance to clean up) `afterMs` into its start, or once
 * it listens if sooner. Whether it was still starting when killed, and what it wrote.
 */
export function killDuringStart(env: Record<string, string>, afterMs: number): Promise<{ killedWhileStarting: boolean; output: string }> {
  const { child, output } = launch(env);
  return new Promise((resolve) => {
    let listening = false;
    const kill = () => child.kill("SIGKILL");
    const timer = setTimeout(kill, afterMs);
    child.stdout!.on("data", () => {
      if (!listening && output().includes('"msg":"listening"')) {
        listening = true;
        kill();
      }
    });
    child.once("exit", () => {
      clearTimeout(timer);
      resolve({ killedWhileStarting: !listening, output: output() });
    });
  });
}
