/**
 * Compiles the message catalogues (messages/*.json) to app/paraglide/ when they, or the way they
 * compile, have changed since the last compile (decision 047). Run by `npm install`, so that the type
 * check, the tests and scripts find them before any build, and by every Vite start but the dev
 * server's (vite.config.ts: the route types' generation, each language's build).
 *
 * A compile opens the inlang project and writes a type declaration for every message with
 * TypeScript's compiler: some 14 core-seconds, which Paraglide's Vite plugin spent again in every new
 * process (the route types, then each language's build) to find the folder as it already was. The
 * folder keeps a digest of what it was compiled from; a start whose inputs give the same digest
 * compiles nothing.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compile, type CompilerOptions } from "@inlang/paraglide-js";
import { MESSAGES_COMPILE_OPTIONS } from "../messages.config.ts";

const projectRoot = join(import.meta.dirname, "..");
/** Where the compiled folder notes what it was compiled from (the folder is the compile's alone: a fresh compile removes it). */
const stampIn = (options: CompilerOptions, root: string) => join(resolve(root, options.outdir), ".compiled-from");
/** The packages whose code writes the compiled messages. */
const COMPILERS = ["@inlang/paraglide-js", "@inlang/plugin-message-format"];

/** A digest of everything a compile reads: the options, the compilers' versions, the project's settings and every catalogue. */
export function messagesDigest(options: CompilerOptions, root = projectRoot): string {
  const hash = createHash("sha256");
  const versions = COMPILERS.map((name) => JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version);
  hash.update(JSON.stringify({ options, versions }));
  const catalogues = readdirSync(join(root, "messages")).sort().map((name) => `messages/${name}`);
  for (const file of ["project.inlang/settings.json", ...catalogues]) {
    const content = readFileSync(join(root, file));
    hash.update(`\0${file}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest("hex");
}

/**
 * Compiles the catalogues under `root` (the project's, unless a test names another) unless its
 * app/paraglide/ was compiled from the same inputs; says whether it compiled.
 */
export async function compileMessages(options: CompilerOptions = MESSAGES_COMPILE_OPTIONS, root = projectRoot): Promise<boolean> {
  const stamp = stampIn(options, root);
  const digest = messagesDigest(options, root);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest) return false;
  rmSync(stamp, { force: true });
  await compile({ ...options, project: resolve(root, options.project), outdir: resolve(root, options.outdir) });
  writeFileSync(stamp, digest);
  return true;
}

/** The dev server's plugin compiles in a layout of its own as catalogues change: the next compile must not trust the digest. */
export function forgetCompiledMessages(options: CompilerOptions = MESSAGES_COMPILE_OPTIONS, root = projectRoot) {
  rmSync(stampIn(options, root), { force: true });
}

if (import.meta.main) await compileMessages();
