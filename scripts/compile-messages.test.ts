import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MESSAGES_COMPILE_OPTIONS } from "../messages.config.ts";
import { compileMessages, forgetCompiledMessages } from "./compile-messages.ts";

const projectRoot = join(import.meta.dirname, "..");
const roots: string[] = [];

/** A project of its own: the real settings and compilers, and two small catalogues. */
function smallProject() {
  const root = mkdtempSync(join(tmpdir(), "dwell-messages-"));
  roots.push(root);
  mkdirSync(join(root, "project.inlang"));
  cpSync(join(projectRoot, "project.inlang/settings.json"), join(root, "project.inlang/settings.json"));
  symlinkSync(join(projectRoot, "node_modules"), join(root, "node_modules"));
  mkdirSync(join(root, "messages"));
  writeCatalogues(root, "Welcome, Dweller");
  return root;
}

function writeCatalogues(root: string, greeting: string) {
  writeFileSync(join(root, "messages/en.json"), JSON.stringify({ greeting, farewell: "Until the next gathering" }));
  writeFileSync(join(root, "messages/ja.json"), JSON.stringify({ greeting: "ようこそ", farewell: "また次の集いで" }));
}

const compiled = (root: string, key: string) => join(root, "app/paraglide/messages", `${key}.js`);

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("the message catalogues' compile", () => {
  it("compiles once, then not again until a catalogue changes", async () => {
    const root = smallProject();
    expect(await compileMessages(MESSAGES_COMPILE_OPTIONS, root)).toBe(true);
    expect(readFileSync(compiled(root, "greeting"), "utf8")).toContain("Welcome, Dweller");
    const written = statSync(compiled(root, "greeting")).mtimeMs;

    expect(await compileMessages(MESSAGES_COMPILE_OPTIONS, root)).toBe(false);
    expect(statSync(compiled(root, "greeting")).mtimeMs).toBe(written);

    writeCatalogues(root, "Welcome home, Dweller");
    expect(await compileMessages(MESSAGES_COMPILE_OPTIONS, root)).toBe(true);
    expect(readFileSync(compiled(root, "greeting"), "utf8")).toContain("Welcome home, Dweller");
  });

  it("compiles again when the way to compile changes, or once the dev server has written the folder its own way", async () => {
    const root = smallProject();
    expect(await compileMessages(MESSAGES_COMPILE_OPTIONS, root)).toBe(true);
    const perLanguage = { ...MESSAGES_COMPILE_OPTIONS, outputStructure: "locale-modules" as const };
    expect(await compileMessages(perLanguage, root)).toBe(true);

    forgetCompiledMessages(perLanguage, root);
    expect(await compileMessages(MESSAGES_COMPILE_OPTIONS, root)).toBe(true);
    expect(readFileSync(compiled(root, "farewell"), "utf8")).toContain("Until the next gathering");
  });
});
