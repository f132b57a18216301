/** The production build, made when missing or older than the sources (a fresh clone, a pull). */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
export const serverBundle = join(root, "build/server/index.js");
/** Which browser files each language loads (decision 039), in a build's directory. */
export function languagesFileIn(buildDirectory: string): string {
  return join(buildDirectory, "languages.json");
}
/** Written last by scripts/build.ts: without it the build is not whole. */
export const languagesFile = languagesFileIn(join(root, "build"));
const SOURCES = ["app", "server", "public", "drizzle", "messages", "project.inlang", "messages.config.ts", "vite.config.ts", "react-router.config.ts", "scripts/build.ts", "scripts/compile-messages.ts", "scripts/one-language-messages.ts", "package-lock.json"];

function newestSourceChange(): number {
  let newest = 0;
  const visit = (path: string) => {
    const stats = statSync(path);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    // A test file is not built: writing one does not make the site build again.
    else if (!/\.test\.tsx?$/.test(path)) newest = Math.max(newest, stats.mtimeMs);
  };
  for (const name of SOURCES) if (existsSync(join(root, name))) visit(join(root, name));
  return newest;
}

export function ensureBuild() {
  if (existsSync(serverBundle) && existsSync(languagesFile) && statSync(serverBundle).mtimeMs >= newestSourceChange()) return;
  console.error("Building the site (first start, or the sources changed)…");
  const result = spawnSync(process.execPath, [join(root, "scripts/build.ts")], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) {
    console.error("The build failed; see above.");
    process.exit(1);
  }
}
