import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAuth, type Auth } from "~/utils/auth.server";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createFirstOwner, offerFirstOwnerSetup, SETUP_CODE_FILE } from "./first-owner.server";

const PASSWORD = "lanterns-over-the-quiet-hall";
const HOUR = 60 * 60 * 1000;

describeEachDatabase("the first owner, made with the setup code", (kind) => {
  let database: TestDatabase;
  let auth: Auth;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    auth = createAuth({ db: database.db, publicUrl: "http://localhost:3000", secret: "a-test-secret-that-is-long-enough-1234", mailer: { send: async () => undefined } });
    dataDir = mkdtempSync(join(tmpdir(), "dwell-setup-"));
  });
  afterAll(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const make = (code: string, now: Date, email = "oak@dwell.example") => createFirstOwner({ db: database.db, auth, dataDir }, { code, username: "Oak", email, password: PASSWORD }, now);

  it("writes a code only the server's user may read, refuses it after 24 hours, and a new start's code replaces it", async () => {
    const start = new Date("2026-12-01T10:00:00Z");
    const first = (await offerFirstOwnerSetup(database.db, dataDir, start))!;
    expect(first).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const file = join(dataDir, SETUP_CODE_FILE);
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await make(first, new Date(start.getTime() + 24 * HOUR + 1000))).toMatchObject({ ok: false, status: 404 });
    const second = (await offerFirstOwnerSetup(database.db, dataDir, new Date()))!;
    expect(second).not.toBe(first);
    expect(await make(first, new Date())).toMatchObject({ ok: false, status: 400, field: "code" });
  });

  it("stops the code for the hour after 5 wrong tries, even the right one", async () => {
    const now = new Date();
    const code = (await offerFirstOwnerSetup(database.db, dataDir, now))!;
    const attempt = (given: string) => make(given, now);
    const statuses: number[] = [];
    for (const given of ["AAAA-BBBB-CCCC", "AAAA-BBBB-CCCD", "", "AAAA", "AAAA-BBBB-CCCE", code]) {
      const outcome = await attempt(given);
      statuses.push(outcome.ok ? 200 : outcome.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
  });

  it("refuses a weak passphrase or a bad address without using the code, then makes the owner once", async () => {
    const now = new Date();
    const code = (await offerFirstOwnerSetup(database.db, dataDir, now))!;
    const weak = await createFirstOwner({ db: database.db, auth, dataDir }, { code, username: "Oak", email: "oak@dwell.example", password: "short" }, now);
    expect(weak).toMatchObject({ ok: false, status: 400, field: "password" });
    expect(await make(code, now, "not-an-address")).toMatchObject({ ok: false, status: 400, field: "email" });
    // Typed by hand: lower case, without the dashes.
    expect(await make(code.toLowerCase().replaceAll("-", " "), now)).toEqual({ ok: true, email: "oak@dwell.example" });
    expect(() => statSync(join(dataDir, SETUP_CODE_FILE))).toThrow();
    expect(await make(code, now, "other@dwell.example")).toMatchObject({ ok: false, status: 409 });
    // With an owner, a start offers no code at all.
    expect(await offerFirstOwnerSetup(database.db, dataDir, now)).toBeNull();
  });
});
