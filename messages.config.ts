// How the catalogues in messages/ compile to app/paraglide/: read by the Vite plugin (the build,
// `npm run dev`) and by `npm install` (scripts/compile-messages.ts). The language of a request is
// chosen by the site, not by Paraglide: see app/utils/language.ts.
import type { CompilerOptions } from "@inlang/paraglide-js";

export const MESSAGES_COMPILE_OPTIONS: CompilerOptions = {
  project: "./project.inlang",
  outdir: "./app/paraglide",
  strategy: ["globalVariable", "baseLocale"],
  isServer: "import.meta.env.SSR",
  emitTsDeclarations: true,
  emitReadme: false,
  emitPrettierIgnore: false,
};
