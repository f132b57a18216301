import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLockedError, LOCK_SOCKET_NAME, lockDataDir, type DataDirLock } from "./data-dir-lock.server";

describe("lockDataDir", () => {
  const held: DataDirLock[] = [];
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "dwell-lock-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(held.splice(0).map((lock) => lock.release()));
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("refuses a folder another holder has, and allows it once released", async () => {
    const dir = newDir();
    const first = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(DataDirLockedError);
    await expect(lockDataDir(dir)).rejects.toThrow(/in use by another running Dwell process/);
    await first.release();
    held.push(await lockDataDir(dir));
  });

  it("creates a missing folder", async () => {
    const dir = join(newDir(), "nested", "data");
    held.push(await lockDataDir(dir));
  });

  it("takes over a socket left behind by a killed process", async () => {
    const dir = newDir();
    const socketPath = join(dir, LOCK_SOCKET_NAME);
    const holder = spawn(process.execPath, [
      "-e",
      `require("node:net").createServer().listen(${JSON.stringify(socketPath)}, () => console.log("ready"))`,
    ]);
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    await expect(lockDataDir(dir)).rejects.toThrow(DataDirLockedError);
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    expect(existsSync(socketPath)).toBe(true);
    held.push(await lockDataDir(dir));
  });

  it("does not mistake an ordinary file for a live holder", async () => {
    const dir = newDir();
    writeFileSync(join(dir, LOCK_SOCKET_NAME), "not a socket");
    held.push(await lockDataDir(dir));
  });
});
