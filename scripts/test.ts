/**
 * `npm test`: every check, in the order that fails soonest, and how long each took.
 *
 * The type check and the linter are single-threaded and read the same sources: on two cores they
 * run side by side. The build, the Vitest suites and the browser suite each use every core, so
 * they run one after another, with one exception: the event night's Vitest file (SIDE_FILE) lives
 * through an event in real minutes and is mostly waiting on the clock, so it runs in a Vitest of
 * its own that starts with the other Vitest files and goes on beside the browser suite (its output
 * is printed at the end). The first failure stops the stages that follow; the times are printed
 * either way.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const SIDE_FILE = "tests/integration/event-night-http.test.ts";
const SIDE = ["test:unit", "--", "--project", "server", SIDE_FILE];
const SIDE_NAME = "test:unit (event night)";
const UNIT = ["test:unit", "--", "--exclude", `**/${SIDE_FILE}`];
const STAGES: string[][][] = [[["typecheck"], ["lint"]], [["build"]], [UNIT], [["test:e2e"]]];

const times: string[] = [];
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

/** Runs an npm script; given `kept`, its output goes there (to be printed later) instead of mixing in. */
function run(command: string[], name = command[0], kept?: Buffer[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(npm, ["run", ...command], { cwd: root, stdio: kept ? ["ignore", "pipe", "pipe"] : "inherit" });
    child.stdout?.on("data", (chunk: Buffer) => kept?.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => kept?.push(chunk));
    child.once("close", (code, signal) => {
      times.push(`${name} ${seconds(started)}${code === 0 ? "" : " (failed)"}`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const started = performance.now();
let failed = false;
const sideOutput: Buffer[] = [];
let side: Promise<number> | undefined;
for (const stage of STAGES) {
  if (stage.includes(UNIT)) side = run(SIDE, SIDE_NAME, sideOutput);
  const codes = await Promise.all(stage.map((command) => run(command)));
  if (codes.some((code) => code !== 0)) {
    failed = true;
    break;
  }
}
if (side) {
  const code = await side;
  process.stdout.write(`\n── ${SIDE_NAME} ──\n${Buffer.concat(sideOutput).toString()}`);
  if (code !== 0) failed = true;
}
console.log(`\nnpm test ${failed ? "failed" : "passed"} in ${seconds(started)}: ${times.join(", ")}`);
process.exit(failed ? 1 : 0);
