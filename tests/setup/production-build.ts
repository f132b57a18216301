import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Tests that run the real server need a current production build: make it once, up front. */
export function setup() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const build = spawnSync(process.execPath, ["server/main.ts", "--build-only"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("the production build failed");
}
