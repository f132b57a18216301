import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ON_PGLITE, ON_POSTGRES, postgresUrl } from "../setup/test-database";
import { runUserCommand } from "../setup/sanctum-client";
import { killDuringStart, runServerProcess, SERVER_START_TIMEOUT_MS, startServerProcess, type ServerProcess } from "../setup/server-process";

const dirs: string[] = [];
const running: ServerProcess[] = [];
function dataDir() {
  const dir = mkdtempSync(join(tmpdir(), "dwell-server-"));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop("SIGKILL")));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
/**
 * This file is about the server's own start. The tests of a first start on a new data folder let the
 * server create its embedded database from nothing (`newDatabase`); the others start on a copy of the
 * migrated template, which is the database a site has after its first start, demo content not yet
 * added (see pglite-template.ts): creating one takes about 3.4 core-seconds, copying one 0.5.
 */
async function start(env: Record<string, string>, { newDatabase = false } = {}) {
  const server = await startServerProcess(env, undefined, undefined, { newDatabase });
  running.push(server);
  return server;
}

// Each test starts servers (some two or more, one after the other, on a database made from nothing):
// each start may take its whole allowance on a busy machine.
describe.runIf(ON_PGLITE)("the server process on the embedded database", { timeout: 2 * SERVER_START_TIMEOUT_MS }, () => {
  it("seeds demo content on a new data folder, serves pages, and answers 404s", async () => {
    const server = await start({ DATA_DIR: dataDir() }, { newDatabase: true });
    const events = await fetch(`${server.url}/events`);
    expect(events.status).toBe(200);
    expect(await events.text()).toContain("The Gathering at the Threshold");
    expect((await fetch(`${server.url}/no-such-page`)).status).toBe(404);
    expect((await fetch(`${server.url}/events/not-an-id`)).status).toBe(404);
    expect((await fetch(`${server.url}/events/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const health = await fetch(`${server.url}/api/health`);
    expect(await health.json()).toEqual({ status: "ok" });
    expect(server.output()).toContain('"msg":"page not found","path":"/no-such-page"');
    expect(await server.stop()).toBe(0);
  });

  it("refuses a data folder another live server holds, naming the problem", async () => {
    const dir = dataDir();
    const first = await start({ DATA_DIR: dir });
    const second = await runServerProcess({ DATA_DIR: dir });
    expect(second.code).not.toBe(0);
    expect(second.output).toContain("is in use by another running Dwell process");
    // The first one is unharmed.
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    await first.stop();
  });

  it("restarts after being killed, with its data intact and nothing seeded twice", async () => {
    const dir = dataDir();
    const first = await start({ DATA_DIR: dir });
    await first.stop("SIGKILL");
    const second = await start({ DATA_DIR: dir });
    const page = await (await fetch(`${second.url}/events`)).text();
    expect(page.match(/>Starlight Open Mic<\/h3>/g)?.length).toBe(1);
    await second.stop();
  });

  it("starts after being killed at any point of a start (migrations, demo content), as if that start never happened", async () => {
    const dir = dataDir();
    let killedWhileStarting = 0;
    // From the first instants (the database being made) to the last (the demo content, listening).
    for (const afterMs of [400, 900, 1_400, 1_900, 2_400, 3_000, 3_600]) {
      const killed = await killDuringStart({ DATA_DIR: dir }, afterMs);
      if (killed.killedWhileStarting) killedWhileStarting++;
    }
    expect(killedWhileStarting).toBeGreaterThan(2);
    const server = await start({ DATA_DIR: dir }, { newDatabase: true });
    const page = await (await fetch(`${server.url}/events`)).text();
    expect(page.match(/>Starlight Open Mic<\/h3>/g)?.length).toBe(1);
    await server.stop();
  });

  it("seeds the demo content at the first start even when an account was made before it", async () => {
    const dir = dataDir();
    // A newcomer's order: the account first, then `npm start`.
    expect(runUserCommand(dir, ["create", "--email", "keeper@dwell.example"], { USER_PASSWORD: "a long enough passphrase" }).status).toBe(0);
    const first = await start({ DATA_DIR: dir }, { newDatabase: true });
    const page = await (await fetch(`${first.url}/events`)).text();
    expect(page.match(/>Starlight Open Mic<\/h3>/g)?.length).toBe(1);
    expect(first.output()).toContain("seeded demo content");
    await first.stop();
    // Recorded once: a restart seeds nothing.
    const second = await start({ DATA_DIR: dir });
    expect(second.output()).not.toContain("seeded demo content");
    await second.stop();
  });

  it("starts empty with DEMO_CONTENT=false, and stays so when it is turned on later", async () => {
    const dir = dataDir();
    const first = await start({ DATA_DIR: dir, DEMO_CONTENT: "false" });
    const empty = await (await fetch(`${first.url}/events`)).text();
    expect(empty).toContain("No Events Scheduled");
    expect(empty).not.toContain("Starlight Open Mic");
    expect(first.output()).not.toContain("seeded demo content");
    await first.stop();
    const second = await start({ DATA_DIR: dir, DEMO_CONTENT: "true" });
    const page = await (await fetch(`${second.url}/events`)).text();
    expect(page).toContain("No Events Scheduled");
    expect(page).not.toContain("Starlight Open Mic");
    await second.stop();
  });

  it.each([
    [{ PORT: "not-a-port" }, "PORT"],
    [{ DATABASE_URL: "mysql://nope" }, "DATABASE_URL"],
    [{ DEMO_CONTENT: "maybe" }, "DEMO_CONTENT"],
    [{ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" }, "AUTH_SECRET"],
    [{ AUTH_SECRET: "too-short" }, "AUTH_SECRET"],
    [{ TRUST_PROXY: "true" }, "PUBLIC_URL"],
    [{ PUBLIC_URL: "https://dwell.example/dwell" }, "PUBLIC_URL"],
  ])("stops on bad configuration %o and names the variable", async (env, name) => {
    const result = await runServerProcess({ DATA_DIR: dataDir(), ...env });
    expect(result.code).toBe(1);
    expect(result.output).toContain("Dwell cannot start. Invalid configuration:");
    expect(result.output).toContain(`${name}:`);
  });
});

describe.runIf(ON_POSTGRES)("the server process on PostgreSQL", () => {
  it("migrates once with several processes starting together, and seeds nothing", async () => {
    const name = `dwell_proc_${Date.now()}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const env = { DATABASE_URL: postgresUrl(name), DATA_DIR: dataDir(), AUTH_SECRET: "a-shared-secret-for-every-process-0123456789" };
      const servers = await Promise.all([start(env), start(env), start(env)]);
      for (const server of servers) {
        const page = await (await fetch(`${server.url}/events`)).text();
        expect(page).toContain("No Events Scheduled");
      }
      await Promise.all(servers.map((server) => server.stop()));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
