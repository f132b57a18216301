/**
 * Dwell as the benchmarks run it: the production build, served by real `node server/main.ts`
 * processes, on the embedded database (PGlite) or on a fresh PostgreSQL database of its own.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { startServerProcess, type ServerProcess } from "../../tests/setup/server-process.ts";

export const root = fileURLToPath(new URL("../..", import.meta.url));

export type DatabaseKind = "pglite" | "postgres";

export type Query = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>;

/** Builds the production bundle from the current sources, whatever its age. */
export function buildProduction(): void {
  const result = spawnSync(process.execPath, [join(root, "scripts/build.ts")], { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`the production build failed:\n${result.stdout}\n${result.stderr}`);
}

/** A PostgreSQL database made for one run, dropped by `drop`. */
export interface PostgresDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createPostgresDatabase(serverUrl: string, label: string): Promise<PostgresDatabase> {
  const name = `dwell_bench_${label}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

export async function withPostgres<T>(url: string, run: (query: Query) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(async (text, params) => (await client.query(text, params)).rows);
  } finally {
    await client.end();
  }
}

export interface Site {
  kind: DatabaseKind;
  /** Changes when the embedded site restarts (the port is picked anew). */
  readonly url: string;
  env: Record<string, string>;
  /**
   * Runs SQL on the site's database. PGlite allows one process at a time, so the embedded site's
   * server is stopped around it and started again after.
   */
  withDatabase<T>(run: (query: Query) => Promise<T>): Promise<T>;
  /** An admin account made with the operator's command (`npm run user:create`). */
  createAdmin(email: string, password: string): void;
  /** What the running server wrote to its log since it (last) started. */
  output(): string;
  close(): Promise<void>;
}

export interface SiteOptions {
  kind: DatabaseKind;
  /** The PostgreSQL server to make the site's database in (TEST_DATABASE_URL). */
  postgresUrl?: string;
  env?: Record<string, string>;
}

const DEMO_TABLES = ["events", "application_questions", "event_application_questions", "announcements", "announcement_places"] as const;
type DemoContent = Record<(typeof DEMO_TABLES)[number], unknown[]>;

/**
 * The demo content seeded into a new embedded database, read back from a stopped embedded site.
 * PostgreSQL sites are never seeded by the server, so the benchmarks copy this into them: both
 * databases then serve the same events and questions.
 */
async function readDemoContent(query: Query): Promise<DemoContent> {
  const content = {} as DemoContent;
  for (const table of DEMO_TABLES) {
    // Events imported from the VRChat calendar are left out: each site imports its own.
    const where = table === "events" ? "where vrchat_event_id is null" : "";
    const [row] = await query<{ rows: unknown[] }>(`select coalesce(json_agg(t), '[]'::json) as rows from ${table} t ${where}`);
    content[table] = row!.rows;
  }
  return content;
}

async function writeDemoContent(query: Query, content: DemoContent) {
  for (const table of DEMO_TABLES) {
    await query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [JSON.stringify(content[table])]);
  }
}

let demoContent: DemoContent | null = null;

export async function startSite({ kind, postgresUrl, env = {} }: SiteOptions): Promise<Site> {
  const dataDir = mkdtempSync(join(tmpdir(), `dwell-bench-${kind}-`));
  const database = kind === "postgres" ? await createPostgresDatabase(postgresUrl!, "site") : null;
  const siteEnv: Record<string, string> = {
    DATA_DIR: dataDir,
    DEMO_CONTENT: "true",
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    // Every benchmark client comes from 127.0.0.1: the per-address limit would stop them all.
    RATE_LIMIT_APPLICATIONS: "1000000",
    RATE_LIMIT_APPLICATIONS_SITE: "1000000",
    // The production default (the test helper turns the shared page rendering off).
    PAGE_CACHE_SECONDS: "1",
    // A bilingual group: each page in English, or in Japanese for a Japanese browser.
    SITE_LANGUAGES: "en,ja",
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  };
  let server: ServerProcess = await startServerProcess(siteEnv);

  async function withEmbedded<T>(run: (query: Query) => Promise<T>): Promise<T> {
    await server.stop();
    const client = await PGlite.create(join(dataDir, "pgdata"));
    try {
      return await run(async (text, params) => (await client.query(text, params)).rows as never);
    } finally {
      await client.close();
      server = await startServerProcess(siteEnv);
    }
  }

  const withDatabase = <T>(run: (query: Query) => Promise<T>) =>
    database ? withPostgres(database.url, run) : withEmbedded(run);

  if (kind === "pglite") demoContent ??= await withDatabase(readDemoContent);
  else {
    if (!demoContent) throw new Error("start an embedded site first: its demo content is copied into PostgreSQL");
    const content = demoContent;
    await withDatabase((query) => writeDemoContent(query, content));
  }

  return {
    kind,
    get url() {
      return server.url;
    },
    env: siteEnv,
    withDatabase,
    output: () => server.output(),
    createAdmin(email, password) {
      execFileSync(process.execPath, ["scripts/users.ts", "create", "--email", email, "--role", "admin"], {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          DATA_DIR: dataDir,
          DATABASE_URL: database?.url ?? "",
          AUTH_SECRET: siteEnv.AUTH_SECRET,
          USER_PASSWORD: password,
        },
        stdio: "pipe",
      });
    },
    async close() {
      await server.stop();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The id of the event a page links to under `title` (the demo's open event, by default). */
export function eventIdIn(html: string, title = "The Gathering at the Threshold"): string {
  const match =
    new RegExp(`href="/events/([0-9a-f-]{36})"[^>]*>(?:(?!</a>).)*?${title}`, "s").exec(html) ??
    /href="\/events\/([0-9a-f-]{36})"/.exec(html);
  if (!match) throw new Error("no event link on the events page");
  return match[1]!;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
