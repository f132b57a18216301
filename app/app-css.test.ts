import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "./routes";

/**
 * app.css leaves out the classes of the files only the Sanctum renders (its `@source not` list), so
 * that visitors do not download them. A file on that list that a public page renders would lose its
 * classes there; a Sanctum-only file missing from it makes every visitor pay for its classes.
 */
const APP = import.meta.dirname;
const SANCTUM_LAYOUT = "routes/_site.admin.tsx";

function routeFiles(entries: RouteConfigEntry[], underSanctum: boolean, into: { publicRoutes: string[]; sanctumRoutes: string[] }) {
  for (const entry of entries) {
    const sanctum = underSanctum || entry.file === SANCTUM_LAYOUT;
    (sanctum ? into.sanctumRoutes : into.publicRoutes).push(entry.file);
    routeFiles(entry.children ?? [], sanctum, into);
  }
  return into;
}

function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith("~/") ? join(APP, specifier.slice(2)) : join(dirname(from), specifier);
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`, join(base, "index.tsx"), join(base, "index.ts")]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Every browser file a set of entry files reaches by its imports (server files never reach the browser). */
function reachable(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = entries.map((file) => join(APP, file));
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*"((?:~\/|\.\.?\/)[^"]+)"/g)) {
      const target = resolveImport(file, match[1]!);
      if (target && !/\.server\.tsx?$/.test(target) && !target.includes("/paraglide/")) queue.push(target);
    }
  }
  return seen;
}

function browserFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "paraglide" ? [] : browserFiles(path);
    return /\.tsx$/.test(entry.name) && !/\.(server|test)\.tsx$/.test(entry.name) ? [path] : [];
  });
}

describe("the public stylesheet's list of Sanctum-only files", () => {
  const css = readFileSync(join(APP, "app.css"), "utf8");
  const excluded = [...css.matchAll(/^@source not "\.\/([^"*]+)";$/gm)].map((match) => match[1]!);
  const { publicRoutes, sanctumRoutes } = routeFiles(routes, false, { publicRoutes: ["root.tsx"], sanctumRoutes: [] });
  const publicFiles = reachable(publicRoutes);
  const sanctumFiles = reachable(sanctumRoutes);

  it("names files that exist", () => {
    expect(excluded.length).toBeGreaterThan(20);
    expect(excluded.filter((file) => !existsSync(join(APP, file)))).toEqual([]);
  });

  it("names no file a public page renders", () => {
    expect(excluded.filter((file) => publicFiles.has(join(APP, file)))).toEqual([]);
  });

  it("names every component file only the Sanctum renders", () => {
    const sanctumOnly = browserFiles(APP)
      .filter((file) => sanctumFiles.has(file) && !publicFiles.has(file))
      .map((file) => relative(APP, file));
    expect(sanctumOnly.length).toBeGreaterThan(20);
    expect(sanctumOnly.filter((file) => !excluded.includes(file))).toEqual([]);
  });
});
