// How the catalogues in messages/ compile to app/paraglide/ (the build, `npm run dev` and
// `npm install` all read this). The language of a request is chosen by the site, not by
// Paraglide: see app/utils/language.ts.
import { defineConfig } from "@inlang/paraglide-js";

export default defineConfig({
  outdir: "./app/paraglide",
  strategy: ["globalVariable", "baseLocale"],
  isServer: "import.meta.env.SSR",
  emitTsDeclarations: true,
  emitReadme: false,
  emitPrettierIgnore: false,
});
