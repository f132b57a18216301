// How the catalogues in messages/ compile to app/paraglide/: read by scripts/compile-messages.ts (run by
// `npm install`, the build and the route types' generation) and by the dev server's Paraglide plugin
// (vite.config.ts). The language of a request is chosen by the site, not by Paraglide: see app/utils/language.ts.
import type { CompilerOptions } from "@inlang/paraglide-js";

export const MESSAGES_COMPILE_OPTIONS: CompilerOptions = {
  project: "./project.inlang",
  outdir: "./app/paraglide",
  // One module a message, for every compile but the dev server's (vite.config.ts): left unset, the Vite
  // plugin picked a module a language outside production (the type check's typegen too), and rewrote the
  // folder in the other layout as the build read it. Set, a compile that finds the folder as it would
  // write it writes nothing, so the build, the type check and the linter run side by side (decision 047).
  outputStructure: "message-modules",
  strategy: ["globalVariable", "baseLocale"],
  isServer: "import.meta.env.SSR",
  emitTsDeclarations: true,
  // Set only in a one-language browser build (vite.config.ts, scripts/build.ts): each message then
  // keeps that language's text alone. Written exactly as Paraglide's per-language builds have it, so
  // that every message reads it in place and the bundler can drop the other languages.
  experimentalStaticLocale: "/** @type {any} */ (globalThis).__PARAGLIDE_STATIC_LOCALE__",
  emitReadme: false,
  emitPrettierIgnore: false,
};
