/**
 * `npm test`: every check, in the order that fails soonest, and how long each took.
 *
 * First the route types are generated, and with them the message catalogues compiled as every later
 * compile writes them (a dev server may have left them in another layout, or a catalogue changed:
 * decision 047). Then the type check and the linter, single-threaded and reading the same sources, run
 * side by side, and the production build beside them (its compile of the messages finds them as it
 * would write them, and writes nothing). The Vitest suites and the browser suite each use every core,
 * so they run one after another. Two parts live through an event in real minutes and are mostly
 * waiting on the clock: the event night's Vitest file and the browser's third lane (the evening, the
 * event night in Chromium; playwright.config.ts). Each runs in a process of its own that starts with
 * the Vitest suites and goes on beside the browser suite; their output is printed at the end. The first
 * failure stops the stages that follow; the times are printed either way. The suites share one migrated
 * embedded database to copy, made by the first that needs it (tests/setup/pglite-template.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SHARED_TEMPLATE_ENV } from "../tests/setup/pglite-seed.ts";

const root = join(import.meta.dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const SIDE_FILE = "tests/integration/event-night-http.test.ts";
/** The browser's third lane, as playwright.config.ts names it (that file is not imported here: it starts things). */
const THIRD_LANE = "through-the-evening";

interface Command {
  name: string;
  args: string[];
  env?: Record<string, string>;
}

const TYPEGEN: Command = { name: "typegen", args: ["typegen"] };
// `npm run typecheck` is the two steps in one; TypeScript's compiler itself, once the types are
// generated, on one thread: beside the linter and the build on two cores, its checkers on four
// threads did the same work in twice the core-seconds (decision 048).
const TYPECHECK: Command = { name: "typecheck", args: ["types", "--", "--singleThreaded"] };
const LINT: Command = { name: "lint", args: ["lint"] };
const BUILD: Command = { name: "build", args: ["build"] };
const UNIT: Command = { name: "test:unit", args: ["test:unit", "--", "--exclude", `**/${SIDE_FILE}`] };
const E2E: Command = { name: "test:e2e", args: ["test:e2e", "--", "--project", "shared-site", "--project", "beside"] };
/** Started with the Vitest suites, printed at the end. */
const SIDES: Command[] = [
  { name: "test:unit (event night)", args: ["test:unit", "--", "--project", "server", SIDE_FILE] },
  { name: `test:e2e (${THIRD_LANE})`, args: ["test:e2e", "--", "--project", THIRD_LANE], env: { E2E_WITHOUT_SHARED_SITE: "1" } },
];
const STAGES: Command[][] = [[TYPEGEN], [TYPECHECK, LINT, BUILD], [UNIT], [E2E]];

const times: string[] = [];
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

/** Runs an npm script; given `kept`, its output goes there (to be printed later) instead of mixing in. */
function run(command: Command, kept?: Buffer[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(npm, ["run", ...command.args], {
      cwd: root,
      env: { ...process.env, ...command.env },
      stdio: kept ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    child.stdout?.on("data", (chunk: Buffer) => kept?.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => kept?.push(chunk));
    child.once("close", (code, signal) => {
      times.push(`${command.name} ${seconds(started)}${code === 0 ? "" : " (failed)"}`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

// The run's own folder, which every process it starts is told of: the database template the suites
// share, and Node's compile cache (V8's compiled code of each module a process loads, kept on disk
// for the next process that loads it: tests/setup/node-flags.ts). A cache of the developer's own is kept.
const runFolder = mkdtempSync(join(tmpdir(), "dwell-test-run-"));
process.env[SHARED_TEMPLATE_ENV] = runFolder;
process.env.NODE_COMPILE_CACHE ||= join(runFolder, "compile-cache");
const removeRunFolder = () => rmSync(runFolder, { recursive: true, force: true });
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.once(signal, () => {
    removeRunFolder();
    process.exit(code);
  });
}

const started = performance.now();
let failed = false;
const sides: { command: Command; output: Buffer[]; done: Promise<number> }[] = [];
for (const stage of STAGES) {
  if (stage.includes(UNIT)) {
    for (const command of SIDES) {
      const output: Buffer[] = [];
      sides.push({ command, output, done: run(command, output) });
    }
  }
  const codes = await Promise.all(stage.map((command) => run(command)));
  if (codes.some((code) => code !== 0)) {
    failed = true;
    break;
  }
}
for (const side of sides) {
  const code = await side.done;
  process.stdout.write(`\n── ${side.command.name} ──\n${Buffer.concat(side.output).toString()}`);
  if (code !== 0) failed = true;
}
removeRunFolder();
console.log(`\nnpm test ${failed ? "failed" : "passed"} in ${seconds(started)}: ${times.join(", ")}`);
process.exit(failed ? 1 : 0);
