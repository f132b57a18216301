/**
 * Each language's browser code (decision 039). scripts/build.ts builds the browser's code once per
 * language, each with that language's texts alone, and lists each language's files in
 * build/languages.json. A page links the files of the language it is rendered in: the build's
 * `assets` are read when React Router renders, after the Sanctum has set its staff member's
 * language, so the build answers with the current language's.
 *
 * React Router's browser asks for more of the route list as it goes (`/__manifest?version=…`);
 * that request names the files it runs, so it is answered from the same language's list, whatever
 * its cookie says.
 */
import { existsSync, readFileSync } from "node:fs";
import type { ServerBuild } from "react-router";
import { currentLanguage } from "~/utils/language";

type Assets = ServerBuild["assets"];

export interface LanguageBuild {
  /** The language whose browser code asks, for a route-list request; otherwise undefined. */
  languageOfManifestRequest(url: URL): string | undefined;
}

/**
 * Wraps the build with the languages' files from `languagesFile`. Without that file (development,
 * or a build made with `react-router build` alone) every language shares the build's own files,
 * which then carry every language.
 */
export function languageBuild<Build extends ServerBuild | (() => Promise<ServerBuild>)>(
  build: Build,
  languagesFile: string | undefined,
  siteLanguages: readonly string[],
): { build: Build } & LanguageBuild {
  const unchanged = { build, languageOfManifestRequest: () => undefined };
  // In development Vite serves the browser's code, with every language.
  if (typeof build === "function" || !languagesFile || !existsSync(languagesFile)) return unchanged;
  const own: ServerBuild = build;
  const listed = JSON.parse(readFileSync(languagesFile, "utf8")) as Record<string, Assets>;
  if (!Object.values(listed).some((assets) => assets.version === own.assets.version)) {
    throw new Error(`${languagesFile} belongs to another build: run npm run build`);
  }
  const missing = siteLanguages.filter((language) => !listed[language]);
  if (missing.length > 0) throw new Error(`the build has no browser code for ${missing.join(", ")}: run npm run build`);
  const byVersion = new Map(Object.entries(listed).map(([language, assets]) => [assets.version, language]));
  const perLanguage: ServerBuild = {
    ...own,
    get assets() {
      return listed[currentLanguage()] ?? own.assets;
    },
  };
  return {
    build: perLanguage as Build,
    languageOfManifestRequest: (url) => (url.pathname === "/__manifest" ? byVersion.get(url.searchParams.get("version") ?? "") : undefined),
  };
}
