import { test } from "vitest";
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { migrateDatabase, wrapPglite } from "~/db/db.server";
test("timing", async () => {
  const dist = "node_modules/@electric-sql/pglite/dist/";
  let t = performance.now();
  const lap = (what: string) => { const n = performance.now(); console.log(what, Math.round(n - t)); t = n; };
  const pgMod = await WebAssembly.compile(await readFile(dist + "pglite.wasm")); lap("compile pglite");
  const initMod = await WebAssembly.compile(await readFile(dist + "initdb.wasm")); lap("compile initdb");
  const fsBundle = new Blob([await readFile(dist + "pglite.data")]); lap("read bundle");
  const a = await PGlite.create({ pgliteWasmModule: pgMod, initdbWasmModule: initMod, fsBundle }); lap("create with modules");
  const h = wrapPglite(a); await migrateDatabase(h); lap("migrate");
  const dump = await a.dumpDataDir("none"); lap("dump " + dump.size);
  await a.close();
  for (let i = 0; i < 3; i++) {
    const b = await PGlite.create({ pgliteWasmModule: pgMod, initdbWasmModule: initMod, fsBundle, loadDataDir: dump }); lap("create from dump");
    console.log((await b.query("select count(*) from drizzle.__drizzle_migrations")).rows);
    await b.close();
  }
  const c = await PGlite.create({ loadDataDir: dump }); lap("create from dump, no modules");
  await c.close();
  const d = await PGlite.create(); lap("create plain");
  await d.close();
}, 120000);
