import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { migrateDatabase, openPostgres } from "~/db/db.server";
import { POSTGRES_TEMPLATE, postgresUrl } from "./test-database";

export async function setup() {
  // Tests that run the real server need a current production build; make it once, up front.
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const build = spawnSync(process.execPath, ["server/main.ts", "--build-only"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("the production build failed");

  // With TEST_DATABASE_URL, migrate one template database that every test database copies.
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${POSTGRES_TEMPLATE} with (force)`);
    await admin.query(`create database ${POSTGRES_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const templateUrl = postgresUrl(POSTGRES_TEMPLATE);
  const handle = openPostgres(templateUrl, 1);
  try {
    await migrateDatabase(handle, templateUrl);
  } finally {
    await handle.close();
  }
}
