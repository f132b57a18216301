import pg from "pg";
import { migrateDatabase, openPostgres } from "~/db/db.server";
import { POSTGRES_TEMPLATE, postgresUrl } from "./test-database";

/** With TEST_DATABASE_URL, migrate one template database that every test database copies. */
export async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  // Each test project runs its global setup; the template is made once per run.
  if (!url || process.env.DWELL_TEST_TEMPLATE_READY) return;
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
  process.env.DWELL_TEST_TEMPLATE_READY = "1";
}
