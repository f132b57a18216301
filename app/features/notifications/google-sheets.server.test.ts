import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeGoogleSheets } from "../../../tests/fakes/google-sheets";
import { createGoogleSheetsChannel, readServiceAccountKey, type ServiceAccountKey } from "./google-sheets.server";
import { sampleNotification } from "./test-notification";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const clientEmail = "dwell@project.iam.gserviceaccount.com";

describe("the Google Sheets channel", () => {
  let fake: Awaited<ReturnType<typeof startFakeGoogleSheets>>;
  let key: ServiceAccountKey;
  beforeAll(async () => {
    fake = await startFakeGoogleSheets({ publicKey, clientEmail, expiresIn: 3600 });
    key = {
      client_email: clientEmail,
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      token_uri: `${fake.url}/token`,
    };
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.setMode("normal");
    fake.requests.length = 0;
  });

  function channel(now = () => new Date()) {
    return createGoogleSheetsChannel({
      spreadsheetId: "sheet/1",
      serviceAccount: key,
      range: "Applications",
      apiUrl: fake.url,
      timeoutMs: 300,
      now,
    });
  }

  it("signs in at the key's token_uri and appends one raw row", async () => {
    expect(await channel().deliver(sampleNotification({ answers: [{ question: "Formula?", answer: "=IMPORTXML(1)" }] }))).toEqual({
      kind: "delivered",
    });
    const [append] = fake.requests;
    expect(append!.path).toBe("/v4/spreadsheets/sheet%2F1/values/Applications:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS");
    expect(append!.values).toEqual([
      ["2026-11-21 18:00:00 UTC", "event_application", "Masquerade <Night> & Day", "Moth", "moth#0001", "Formula?: =IMPORTXML(1)"],
    ]);
  });

  it("caches the token until shortly before it expires", async () => {
    let clock = new Date("2026-11-21T18:00:00Z");
    const sheets = channel(() => clock);
    const before = fake.tokenRequests;
    await sheets.deliver(sampleNotification());
    await sheets.deliver(sampleNotification());
    expect(fake.tokenRequests - before).toBe(1);
    clock = new Date(clock.getTime() + 3600_000 - 30_000); // inside the renewal margin
    await sheets.deliver(sampleNotification());
    expect(fake.tokenRequests - before).toBe(2);
    expect(fake.requests).toHaveLength(3);
  });

  it("drops a token Google no longer accepts and gets a new one next time", async () => {
    const sheets = channel();
    await sheets.deliver(sampleNotification());
    fake.revokeTokens();
    expect(await sheets.deliver(sampleNotification())).toMatchObject({ kind: "retry", error: expect.stringContaining("401") });
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "delivered" });
  });

  it("is refused a token for a key that does not match", async () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const sheets = createGoogleSheetsChannel({ spreadsheetId: "s", serviceAccount: { ...key, private_key: other }, apiUrl: fake.url });
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "failed", error: "Google token endpoint answered 400: Invalid JWT" });
  });

  it("retries on 429 with Retry-After, on 5xx and on timeouts; gives up on 403", async () => {
    const sheets = channel();
    await sheets.deliver(sampleNotification()); // a token, so the failures below hit the append
    fake.setMode("rate-limited", { retryAfterSeconds: 30 });
    expect(await sheets.deliver(sampleNotification())).toMatchObject({ kind: "retry", retryAfterMs: 30_000 });
    fake.setMode("down");
    expect(await sheets.deliver(sampleNotification())).toMatchObject({ kind: "retry" });
    fake.setMode("hang");
    expect(await sheets.deliver(sampleNotification())).toMatchObject({ kind: "retry", error: expect.stringContaining("timed out") });
    fake.setMode("reject");
    expect(await sheets.deliver(sampleNotification())).toEqual({
      kind: "failed",
      error: "Google Sheets answered 403: The caller does not have permission",
    });
  });
});

describe("readServiceAccountKey", () => {
  const dir = mkdtempSync(join(tmpdir(), "dwell-key-"));
  const write = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it("reads a key file", async () => {
    const path = write("ok.json", JSON.stringify({ client_email: "a@b", private_key: "-----BEGIN PRIVATE KEY-----\n...", token_uri: "https://oauth2.googleapis.com/token", type: "service_account" }));
    expect((await readServiceAccountKey(path)).token_uri).toBe("https://oauth2.googleapis.com/token");
  });

  it.each([
    ["missing.json", null, /cannot read .*ENOENT/],
    ["text.json", "not json", /is not JSON/],
    ["partial.json", JSON.stringify({ client_email: "a@b" }), /not a usable service account key \(check: private_key, token_uri\)/],
  ])("explains what is wrong with %s", async (name, content, message) => {
    const path = content === null ? join(dir, name) : write(name, content);
    await expect(readServiceAccountKey(path)).rejects.toThrow(message);
  });
});
