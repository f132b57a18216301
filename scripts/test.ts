/**
 * `npm test`: every check, in the order that fails soonest, and how long each took.
 *
 * The type check and the linter are single-threaded and read the same sources: on two cores they
 * run side by side. The build, the Vitest suites and the browser suite each use every core, so
 * they run one after another. The first failure stops the run; the times are printed either way.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const STAGES: string[][] = [["typecheck", "lint"], ["build"], ["test:unit"], ["test:e2e"]];

const times: string[] = [];
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

function run(script: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", script], { cwd: root, stdio: "inherit" });
    child.once("exit", (code, signal) => {
      times.push(`${script} ${seconds(started)}${code === 0 ? "" : " (failed)"}`);
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
