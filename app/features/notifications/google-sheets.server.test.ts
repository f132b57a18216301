import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeGoogleSheets } from "../../../tests/fakes/google-sheets";
import {
  createGoogleSheetsChannel,
  readServiceAccountKey,
  SHEETS_CELL_LIMIT,
  type ServiceAccountKey,
} from "./google-sheets.server";
import { sampleNotification } from "./test-notification";

const pem = (key: ReturnType<typeof generateKeyPairSync>["privateKey"]) => key.export({ type: "pkcs8", format: "pem" }).toString();
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const clientEmail = "dwell@dwell-project.iam.gserviceaccount.com";
const HOUR = 3600_000;

describe("the Google Sheets channel", () => {
  let fake: Awaited<ReturnType<typeof startFakeGoogleSheets>>;
  let key: ServiceAccountKey;
  beforeAll(async () => {
    fake = await startFakeGoogleSheets({ publicKey, clientEmail, spreadsheetId: "sheet/1", expiresIn: 3600 });
    key = { client_email: clientEmail, private_key: pem(privateKey), token_uri: fake.tokenUri };
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.setMode("normal");
    fake.requests.length = 0;
  });

  function channel(options: { now?: () => Date; serviceAccount?: ServiceAccountKey; timeoutMs?: number } = {}) {
    return createGoogleSheetsChannel({
      spreadsheetId: "sheet/1",
      serviceAccount: key,
      range: "Applications!A:Z",
      apiUrl: fake.url,
      // A generous wait for the fake's answers (a loaded machine can take a second to answer on
      // loopback); the test of a Google that hangs gives up sooner.
      timeoutMs: 10_000,
      ...options,
    });
  }

  it("signs in at the key's token_uri and appends one raw row", async () => {
    const notification = sampleNotification({
      answers: [
        { question: "Formula?", answer: '=IMPORTXML("https://evil.example", "//a")' },
        { question: "Why do you wish to attend?", answer: "<script>alert(1)</script> & @everyone" },
        { question: "Anything else?", answer: "" },
      ],
    });
    const tokensBefore = fake.tokenRequests;
    expect(await channel().deliver(notification)).toEqual({ kind: "delivered" });

    expect(fake.tokenRequests - tokensBefore).toBe(1);
    expect(fake.requests).toHaveLength(1);
    const [append] = fake.requests;
    expect(append!.spreadsheetId).toBe("sheet/1");
    expect(append!.range).toBe("Applications!A:Z");
    expect(Object.fromEntries(append!.query)).toEqual({ valueInputOption: "RAW", insertDataOption: "INSERT_ROWS" });
    expect(append!.headers.authorization).toMatch(/^Bearer ya29\.fake-\d+$/);
    expect(append!.headers["content-type"]).toBe("application/json");
    expect(append!.values).toEqual([
      [
        "2026-11-21 18:00:00 UTC",
        "Event application",
        "Masquerade <Night> & Day",
        "Moth",
        "moth#0001",
        'Formula?: =IMPORTXML("https://evil.example", "//a")',
        "Why do you wish to attend?: <script>alert(1)</script> & @everyone",
        "Anything else?: —",
      ],
    ]);
  });

  it("leaves the event column empty for a group application", async () => {
    await channel().deliver(sampleNotification({ type: "group_application", event_title: null, answers: [] }));
    expect(fake.requests[0]!.values[0]).toEqual(["2026-11-21 18:00:00 UTC", "Group application", "", "Moth", "moth#0001"]);
  });

  it("cuts a cell to Google's limit", async () => {
    const notification = sampleNotification({ answers: [{ question: "Essay", answer: "x".repeat(60_000) }] });
    expect(await channel().deliver(notification)).toEqual({ kind: "delivered" });
    const cell = fake.requests[0]!.values[0]!.at(-1)!;
    expect(cell).toHaveLength(SHEETS_CELL_LIMIT);
    expect(cell.startsWith("Essay: xxx")).toBe(true);
    expect(cell.endsWith("…")).toBe(true);
  });

  it("keeps the token until shortly before it expires", async () => {
    let clock = new Date();
    const sheets = channel({ now: () => clock });
    const before = fake.tokenRequests;
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "delivered" });
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "delivered" });
    expect(fake.tokenRequests - before).toBe(1);

    clock = new Date(clock.getTime() + HOUR - 5 * 60_000);
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "delivered" });
    expect(fake.tokenRequests - before).toBe(1);

    clock = new Date(clock.getTime() + 4 * 60_000 + 30_000); // within a minute of expiry
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "delivered" });
    expect(fake.tokenRequests - before).toBe(2);
    expect(fake.requests).toHaveLength(4);
    expect(new Set(fake.requests.map((append) => append.headers.authorization)).size).toBe(2);
  });

  it("signs in once for deliveries made at the same time", async () => {
    const sheets = channel();
    const before = fake.tokenRequests;
    const outcomes = await Promise.all([1, 2, 3].map(() => sheets.deliver(sampleNotification())));
    expect(outcomes).toEqual([{ kind: "delivered" }, { kind: "delivered" }, { kind: "delivered" }]);
    expect(fake.tokenRequests - before).toBe(1);
  });

  it("drops a token Google no longer accepts and signs in again next time", async () => {
    const sheets = channel();
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "delivered" });
    fake.revokeTokens();
    const before = fake.tokenRequests;
    expect(await sheets.deliver(sampleNotification())).toEqual({
      kind: "retry",
      error: "Google Sheets answered 401: Request had invalid authentication credentials.",
    });
    expect(fake.tokenRequests - before).toBe(0);
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "delivered" });
    expect(fake.tokenRequests - before).toBe(1);
    expect(fake.requests).toHaveLength(2);
  });

  it("gives up when Google refuses the key", async () => {
    const otherKey = pem(generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey);
    const wrongKey = channel({ serviceAccount: { ...key, private_key: otherKey } });
    expect(await wrongKey.deliver(sampleNotification())).toEqual({
      kind: "failed",
      error: "Google OAuth answered 400: invalid_grant: Invalid JWT Signature.",
    });
    const wrongAccount = channel({ serviceAccount: { ...key, client_email: "someone@else.iam.gserviceaccount.com" } });
    expect(await wrongAccount.deliver(sampleNotification())).toMatchObject({ kind: "failed", error: expect.stringContaining("Invalid issuer") });
    expect(fake.requests).toHaveLength(0);
  });

  it("retries when Google rate-limits, is down, drops the connection or is too slow, and delivers once it is back", async () => {
    // Signed in once, so what follows hits the append; a hang is given up on after 2 s.
    const sheets = channel({ timeoutMs: 2_000 });
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "delivered" });

    fake.setMode("rate-limited", { retryAfterSeconds: 30 });
    expect(await sheets.deliver(sampleNotification())).toEqual({
      kind: "retry",
      error: "Google Sheets answered 429: Quota exceeded for quota metric 'Write requests'.",
      retryAfterMs: 30_000,
      slowDown: true,
    });
    fake.setMode("down");
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "retry", error: "Google Sheets answered 503" });
    fake.setMode("disconnect");
    expect(await sheets.deliver(sampleNotification())).toMatchObject({ kind: "retry", error: expect.stringMatching(/^Google Sheets unreachable: /) });
    fake.setMode("hang");
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "retry", error: "Google Sheets unreachable: timed out" });

    fake.setMode("normal");
    expect(await sheets.deliver(sampleNotification())).toEqual({ kind: "delivered" });
    expect(fake.requests).toHaveLength(2);
  });

  it("retries when it cannot sign in because Google is down", async () => {
    fake.setMode("down");
    expect(await channel().deliver(sampleNotification())).toEqual({ kind: "retry", error: "Google OAuth answered 503" });
    fake.setMode("rate-limited", { retryAfterSeconds: 5 });
    expect(await channel().deliver(sampleNotification())).toMatchObject({ kind: "retry", retryAfterMs: 5000 });
  });

  it("does not take a 200 without Google's answer as a token or an appended row", async () => {
    fake.setMode("garbage");
    expect(await channel().deliver(sampleNotification())).toEqual({
      kind: "retry",
      error: "Google OAuth answered 200 without the expected confirmation",
    });
    const sheets = channel();
    fake.setMode("normal");
    await sheets.deliver(sampleNotification());
    fake.setMode("garbage");
    expect(await sheets.deliver(sampleNotification())).toEqual({
      kind: "retry",
      error: "Google Sheets answered 200 without the expected confirmation",
    });
  });

  it("gives up when the service account may not write to the sheet", async () => {
    const sheets = channel();
    await sheets.deliver(sampleNotification());
    fake.setMode("reject");
    expect(await sheets.deliver(sampleNotification())).toEqual({
      kind: "failed",
      error: "Google Sheets answered 403: The caller does not have permission",
    });
  });

  it("gives up on a spreadsheet that does not exist", async () => {
    expect(await channel().deliver(sampleNotification())).toEqual({ kind: "delivered" });
    const missing = createGoogleSheetsChannel({ spreadsheetId: "nope", serviceAccount: key, apiUrl: fake.url });
    expect(await missing.deliver(sampleNotification())).toEqual({
      kind: "failed",
      error: "Google Sheets answered 404: Requested entity was not found.",
    });
  });
});

describe("readServiceAccountKey", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "dwell-key-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const googleKey = {
    type: "service_account",
    project_id: "dwell",
    client_email: clientEmail,
    private_key: pem(privateKey),
    token_uri: "https://oauth2.googleapis.com/token",
  };

  it("reads the key file Google Cloud gives out", async () => {
    const path = write("ok.json", JSON.stringify(googleKey));
    expect(await readServiceAccountKey(path)).toEqual({
      client_email: clientEmail,
      private_key: googleKey.private_key,
      token_uri: "https://oauth2.googleapis.com/token",
    });
  });

  it.each([
    ["missing.json", null, /^cannot read .*missing\.json \(ENOENT\)$/],
    ["text.json", "not json", /text\.json is not JSON/],
    ["partial.json", JSON.stringify({ client_email: clientEmail }), /partial\.json is not a usable service account key: private_key .*; token_uri /],
    ["bad-key.json", JSON.stringify({ ...googleKey, private_key: "-----BEGIN PRIVATE KEY-----\nnope" }), /bad-key\.json .*private_key is not a PEM private key$/],
    ["bad-uri.json", JSON.stringify({ ...googleKey, token_uri: "file:///etc/passwd" }), /bad-uri\.json .*token_uri/],
  ])("explains what is wrong with %s", async (name, content, message) => {
    const path = content === null ? join(dir, name) : write(name, content);
    await expect(readServiceAccountKey(path)).rejects.toThrow(message);
  });

  it("never quotes the private key in its error", async () => {
    const path = write("wrong-type.json", JSON.stringify({ ...googleKey, client_email: 42 }));
    const error = await readServiceAccountKey(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/client_email/);
    expect((error as Error).message).not.toContain("PRIVATE KEY");
  });
});
