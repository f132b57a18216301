import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "~/utils/env.server";
import { seedServerDatabase } from "../tests/setup/pglite-seed";
import { openConfiguredDatabase } from "./database";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The page cache the server's embedded database runs with, opened as the server opens it. */
async function sharedBuffersWith(env: Record<string, string>): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), "dwell-buffers-"));
  folders.push(dataDir);
  seedServerDatabase(dataDir);
  const { database, lock } = await openConfiguredDatabase(loadConfig({ DATA_DIR: dataDir, ...env }));
  try {
    const rows = (await database.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
    return rows.rows[0]!.shared_buffers;
  } finally {
    await database.close();
    await lock?.release();
  }
}

describe("the embedded database's page cache", () => {
  it("is PGlite's 128 MB unless PGLITE_SHARED_BUFFERS_MB gives another size", async () => {
    expect(await sharedBuffersWith({})).toBe("128MB");
    expect(await sharedBuffersWith({ PGLITE_SHARED_BUFFERS_MB: "16" })).toBe("16MB");
  });
});
