import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { inLanguage } from "~/utils/language.server";
import { languageBuild } from "./language-assets";

const folder = mkdtempSync(join(tmpdir(), "dwell-language-assets-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const assets = (version: string) => ({ version, url: `/assets/manifest-${version}.js`, entry: { module: `/assets/entry-${version}.js`, imports: [] }, routes: {} });
const build = { assets: assets("e1"), routes: {}, entry: {} } as unknown as ServerBuild;

function listing(name: string, languages: Record<string, ReturnType<typeof assets>>) {
  const file = join(folder, name);
  writeFileSync(file, JSON.stringify(languages));
  return file;
}

describe("each language's browser code", () => {
  it("gives a page the files of the language it is rendered in, and a route request those of the code that asks", () => {
    const file = listing("both.json", { en: assets("e1"), ja: assets("j1") });
    const { build: perLanguage, languageOfManifestRequest } = languageBuild(build, file, ["en", "ja"]);
    expect(inLanguage("ja", () => perLanguage.assets.version)).toBe("j1");
    expect(inLanguage("en", () => perLanguage.assets.version)).toBe("e1");
    expect(languageOfManifestRequest(new URL("http://dwell.test/__manifest?paths=/events&version=j1"))).toBe("ja");
    expect(languageOfManifestRequest(new URL("http://dwell.test/__manifest?paths=/events&version=old"))).toBeUndefined();
    expect(languageOfManifestRequest(new URL("http://dwell.test/events?version=j1"))).toBeUndefined();
  });

  it("keeps the build's own files without a list (development, or a build of every language in one)", () => {
    const { build: same } = languageBuild(build, join(folder, "none.json"), ["en", "ja"]);
    expect(same).toBe(build);
  });

  it("refuses a list made for another build, or one without a language the site offers", () => {
    expect(() => languageBuild(build, listing("old.json", { en: assets("e0"), ja: assets("j0") }), ["en"])).toThrow(
      /belongs to another build: run npm run build/,
    );
    expect(() => languageBuild(build, listing("english.json", { en: assets("e1") }), ["en", "ja"])).toThrow(
      "the build has no browser code for ja: run npm run build",
    );
  });
});
