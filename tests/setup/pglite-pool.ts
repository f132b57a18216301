/**
 * Copies of the template that a test process uses again. Opening a copy boots PostgreSQL in
 * WebAssembly (about a core-second); a worker of the app project runs dozens of files one after
 * another, most opening a database per test. So a database a test closes is emptied back to the
 * template's state and kept for the next test of the same process, which cannot tell it from a new
 * copy: the same tables, rows (none, or what the migrations put there) and sequences, no session
 * settings left behind, and the handle the first test held refuses every query once closed, as a
 * closed database does. A database whose schema or session a test changed is closed for good.
 */
import type { PGlite } from "@electric-sql/pglite";
import { wrapPglite, type DatabaseHandle } from "~/db/db.server";

/** What a copy of the template holds, read once from a copy no test has touched. */
interface TemplateState {
  /** The schema (every relation, column, constraint and function outside the system's), the session's own settings and the migrations applied. */
  fingerprint: string;
  tables: string[];
  /** The rows of the tables the migrations filled, as JSON. */
  rows: Map<string, string>;
  /** Each sequence's value, as setval() takes it. */
  sequences: { name: string; value: string; called: boolean }[];
}

const USER_SCHEMAS = "not in (select oid from pg_namespace where nspname in ('pg_catalog', 'information_schema') or nspname like 'pg_toast%')";
const FINGERPRINT = `
  select md5(concat_ws('|',
    (select string_agg(x, ',' order by x) from (select format('%s.%s:%s', relnamespace::regnamespace, relname, relkind) as x
       from pg_class where relnamespace ${USER_SCHEMAS})),
    (select string_agg(x, ',' order by x) from (select format('%s.%s:%s:%s:%s', a.attrelid::regclass, a.attname, a.atttypid, a.attnotnull, a.atthasdef) as x
       from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace ${USER_SCHEMAS} and a.attnum > 0 and not a.attisdropped)),
    (select string_agg(x, ',' order by x) from (select format('%s.%s:%s', conrelid::regclass, conname, pg_get_constraintdef(oid)) as x
       from pg_constraint where connamespace ${USER_SCHEMAS})),
    (select string_agg(x, ',' order by x) from (select format('%s.%s', pronamespace::regnamespace, proname) as x
       from pg_proc where pronamespace ${USER_SCHEMAS})),
    (select string_agg(x, ',' order by x) from (select format('%s=%s', name, setting) as x from pg_settings where source = 'session')),
    (select count(*) from drizzle.__drizzle_migrations)
  )) as fingerprint`;

async function fingerprintOf(client: PGlite): Promise<string> {
  return (await client.query<{ fingerprint: string }>(FINGERPRINT)).rows[0]!.fingerprint;
}

/** The tables among `tables` that hold a row. */
async function filledTables(client: PGlite, tables: string[]): Promise<string[]> {
  if (tables.length === 0) return [];
  const checks = tables.map((table) => `select '${table.replaceAll("'", "''")}' as name where exists (select 1 from ${table})`);
  return (await client.query<{ name: string }>(checks.join(" union all "))).rows.map((row) => row.name);
}

async function readTemplate(client: PGlite): Promise<TemplateState> {
  const fingerprint = await fingerprintOf(client);
  const tables = (
    await client.query<{ name: string }>("select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public' order by 1")
  ).rows.map((row) => row.name);
  const rows = new Map<string, string>();
  for (const table of await filledTables(client, tables)) {
    const { rows: [dump] } = await client.query<{ rows: string }>(`select json_agg(t)::text as rows from ${table} t`);
    rows.set(table, dump!.rows);
  }
  const sequences = (
    await client.query<{ name: string; value: string | null; start: string }>(
      "select format('%I.%I', schemaname, sequencename) as name, last_value::text as value, start_value::text as start from pg_sequences where schemaname = 'public'",
    )
  ).rows.map((row) => ({ name: row.name, value: row.value ?? row.start, called: row.value !== null }));
  return { fingerprint, tables, rows, sequences };
}

/** Empties a database a test is done with back to the template's state; false when it cannot be (its schema or session changed). */
async function restore(client: PGlite, template: TemplateState): Promise<boolean> {
  if (client.closed || (await fingerprintOf(client)) !== template.fingerprint) return false;
  const touched = new Set([...(await filledTables(client, template.tables)), ...template.rows.keys()]);
  if (touched.size > 0) await client.exec(`truncate ${[...touched].join(", ")} cascade`);
  for (const [table, rows] of template.rows) {
    await client.query(`insert into ${table} overriding system value select * from json_populate_recordset(null::${table}, $1::json)`, [rows]);
  }
  if (template.sequences.length > 0) {
    const calls = template.sequences.map((_, i) => `setval($${3 * i + 1}::regclass, $${3 * i + 2}::bigint, $${3 * i + 3}::boolean)`);
    await client.query(`select ${calls.join(", ")}`, template.sequences.flatMap(({ name, value, called }) => [name, value, called]));
  }
  return true;
}

/**
 * The client a test's handle holds: the database itself until the test closes it, then nothing
 * (every call fails as on a closed database), so that a test that keeps it cannot reach the next
 * test's data.
 */
function lease(client: PGlite): { client: PGlite; end(): void } {
  let ended = false;
  const leased = new Proxy(client, {
    get(target, property) {
      if (ended && property === "closed") return true;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (ended) return () => Promise.reject(new Error("PGlite is closed"));
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
  return { client: leased, end: () => (ended = true) };
}

export class PglitePool {
  private readonly idle: PGlite[] = [];
  private template: TemplateState | undefined;
  private readonly open: () => Promise<PGlite>;
  private readonly idleLimit: number;

  /**
   * `open` makes a new copy of the template. At most `idleLimit` closed copies are kept: in most
   * files one test at a time holds a database, and more would only hold memory.
   */
  constructor(open: () => Promise<PGlite>, idleLimit = 1) {
    this.open = open;
    this.idleLimit = idleLimit;
  }

  /** A database with the template's contents: one a test of this process closed, emptied, or a new copy. */
  async take(): Promise<DatabaseHandle> {
    const client = this.idle.pop() ?? (await this.open());
    this.template ??= await readTemplate(client);
    const template = this.template;
    const held = lease(client);
    let closing: Promise<void> | undefined;
    return {
      ...wrapPglite(held.client),
      close: () =>
        (closing ??= (async () => {
          held.end();
          const reusable = this.idle.length < this.idleLimit && (await restore(client, template).catch(() => false));
          if (reusable) this.idle.push(client);
          else if (!client.closed) await client.close();
        })()),
    };
  }
}
