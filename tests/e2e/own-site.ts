import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

export interface OwnSite {
  url: string;
  server: ServerProcess;
  /** Its data folder, for the operator's commands (another staff account). */
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * A site of the test's own (production build, fresh demo database, its owner made with the
 * operator's command), for tests that read figures: nothing another test does can change them.
 */
export async function startOwnSite(admin: { email: string; password: string }, env: Record<string, string> = {}): Promise<OwnSite> {
  const dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-own-"));
  const server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_APPLICATIONS: "10000", RATE_LIMIT_SIGN_IN: "10000", RATE_LIMIT_APPLICATIONS_SITE: "10000", RATE_LIMIT_DUPLICATES: "10000", ...env });
  createAccountWithCommand(dataDir, admin.email, admin.password, "owner");
  return {
    url: server.url,
    server,
    dataDir,
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
