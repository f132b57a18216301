/**
 * `npm run build`: the production build, with the browser's code once per language (decision 039).
 *
 * Each language's browser code carries only that language's texts. The default language's build
 * is the site's (build/, its server included); every other language's browser code is built
 * beside it and its files join build/client/assets (content-hashed names: a file both builds make
 * alike has the same name and the same bytes). build/languages.json says which files each language
 * loads; the server picks them by the language it renders a page in (server/language-assets.ts).
 *
 * `--languages=en,ja` builds the browser code of those languages alone (the default one among them):
 * enough for a site whose SITE_LANGUAGES lists no other.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { languagesFile, root } from "../server/build.ts";

interface ProjectSettings {
  baseLocale: string;
  locales: string[];
}

/** The route manifest React Router's browser code starts from, as the client build wrote it. */
function clientManifest(clientDir: string): { version: string } & Record<string, unknown> {
  const assets = join(clientDir, "assets");
  const file = readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`no route manifest in ${assets}`);
  const text = readFileSync(join(assets, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;\s*$/, ""));
}

function reactRouterBuild(language: string, buildDirectory: string) {
  const result = spawnSync(join(root, "node_modules/.bin/react-router"), ["build"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    // A production build whatever the caller's NODE_ENV: Vitest's "test", inherited by a build it
    // starts (tests/setup/production-build.ts), gave the browser React's development code.
    env: { ...process.env, NODE_ENV: "production", DWELL_CLIENT_LANGUAGE: language, DWELL_BUILD_DIRECTORY: buildDirectory },
  });
  if (result.status !== 0) throw new Error(`the build for ${language} failed`);
}

export function buildSite(languages?: readonly string[]) {
  const settings = JSON.parse(readFileSync(join(root, "project.inlang/settings.json"), "utf8")) as ProjectSettings;
  const unknown = (languages ?? []).filter((language) => !settings.locales.includes(language));
  if (unknown.length > 0) throw new Error(`no catalogue for ${unknown.join(", ")} in project.inlang/settings.json`);
  if (languages && !languages.includes(settings.baseLocale)) throw new Error(`the build always has the default language, ${settings.baseLocale}`);
  const others = settings.locales.filter((locale) => locale !== settings.baseLocale && (!languages || languages.includes(locale)));
  // Until the last step has written it, the build is not whole (server/build.ts builds again).
  rmSync(languagesFile, { force: true });
  const scratch = mkdtempSync(join(tmpdir(), "dwell-build-"));
  try {
    for (const language of others) reactRouterBuild(language, join(scratch, language));
    reactRouterBuild(settings.baseLocale, join(root, "build"));
    const client = join(root, "build/client");
    const manifests: Record<string, unknown> = { [settings.baseLocale]: clientManifest(client) };
    for (const language of others) {
      const languageClient = join(scratch, language, "client");
      for (const name of readdirSync(join(languageClient, "assets"))) {
        const from = join(languageClient, "assets", name);
        const to = join(client, "assets", name);
        if (existsSync(to)) {
          if (!readFileSync(to).equals(readFileSync(from))) throw new Error(`two different files named assets/${name}`);
        } else copyFileSync(from, to);
      }
      manifests[language] = clientManifest(languageClient);
    }
    writeFileSync(languagesFile, `${JSON.stringify(manifests)}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const chosen = process.argv.find((argument) => argument.startsWith("--languages="));
  try {
    buildSite(chosen?.slice("--languages=".length).split(",").map((language) => language.trim()));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
