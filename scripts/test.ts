/**
 * `npm test`: every check, in the order that fails soonest, and how long each took.
 *
 * The type check and the linter are single-threaded and read the same sources: on two cores they
 * run side by side. The build, the Vitest suites and the browser suite each use every core, so
 * they run one after another, except the files that mostly wait on the clock (an event night lived
 * in real minutes): they run beside the browser suite, which they barely slow. The first failure
 * stops the run; the times are printed either way.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
/** Vitest files that spend their minutes waiting on the clock, not on the machine. */
const ON_THE_CLOCK = ["tests/integration/event-night-http.test.ts"];
const vitest = ["exec", "--", "vitest", "run"];

interface Step {
  label: string;
  args: string[];
}
const script = (name: string): Step => ({ label: name, args: ["run", name] });
const STAGES: Step[][] = [
  [script("typecheck"), script("lint")],
  [script("build")],
  [{ label: "test:unit", args: [...vitest, ...ON_THE_CLOCK.flatMap((file) => ["--exclude", file])] }],
  [script("test:e2e"), { label: "test:unit (on the clock)", args: [...vitest, ...ON_THE_CLOCK] }],
];

const times: string[] = [];
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

function run({ label, args }: Step): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(npm, args, { cwd: root, stdio: "inherit" });
    child.once("exit", (code, signal) => {
      times.push(`${label} ${seconds(started)}${code === 0 ? "" : " (failed)"}`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const started = performance.now();
let failed = false;
for (const stage of STAGES) {
  const codes = await Promise.all(stage.map(run));
  if (codes.some((code) => code !== 0)) {
    failed = true;
    break;
  }
}
console.log(`\nnpm test ${failed ? "failed" : "passed"} in ${seconds(started)}: ${times.join(", ")}`);
process.exit(failed ? 1 : 0);
