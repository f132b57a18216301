import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sharedTemplate } from "../tests/setup/pglite-template";

/** `npm test`'s suites share one template: the protocol, with a small stand-in for the database. */
describe("the template the suites of one run share", () => {
  let shared: string;
  let made: number;
  const write = async (dir: string) => {
    made++;
    await sleep(200);
    writeFileSync(join(dir, "image.tar"), `made ${made}`);
  };

  beforeEach(() => {
    shared = mkdtempSync(join(tmpdir(), "dwell-shared-template-test-"));
    made = 0;
  });
  afterEach(() => {
    rmSync(shared, { recursive: true, force: true });
  });

  it("is made once when suites ask at the same moment, and each waits for it whole", async () => {
    const dirs = await Promise.all([sharedTemplate(shared, write), sharedTemplate(shared, write), sharedTemplate(shared, write)]);
    expect(made).toBe(1);
    expect(new Set(dirs).size).toBe(1);
    expect(readFileSync(join(dirs[0]!, "image.tar"), "utf8")).toBe("made 1");
    // Only the template is left: no claim, no half-made folder.
    expect(readdirSync(shared)).toEqual(["template"]);

    await sharedTemplate(shared, write);
    expect(made).toBe(1);
  });

  it("gives the claim back when the making fails, and the next suite makes it", async () => {
    const failing = async () => {
      await sleep(50);
      throw new Error("no room on the disk");
    };
    await expect(sharedTemplate(shared, failing)).rejects.toThrow("no room on the disk");
    expect(readdirSync(shared)).toEqual([]);
    await sharedTemplate(shared, write);
    expect(made).toBe(1);
  });

  it("makes it when the suite that claimed it was killed before it finished", async () => {
    const ended = spawnSync(process.execPath, ["-e", ""]);
    mkdirSync(join(shared, "making"));
    writeFileSync(join(shared, "making", "pid"), String(ended.pid));
    const dir = await sharedTemplate(shared, write);
    expect(made).toBe(1);
    expect(readFileSync(join(dir, "image.tar"), "utf8")).toBe("made 1");
  });
});
