/**
 * The public application form against scripts, as a production server behind a proxy meets them:
 * a post sooner than a person could fill the form, a filled honeypot, a flood from one IPv6 /64,
 * and a flood from many addresses, which admins see on the dashboard. A person, meanwhile, gets in.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountWithCommand, postForm as postFrom, signIn } from "../setup/sanctum-client";
import { crowdChallengeIn, solveCrowdChallenge } from "../setup/crowd-proof";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

const SITE = "https://dwell.example";
const PER_CLIENT = 6;
const SITE_CEILING = 20;

let server: ServerProcess;
let dataDir: string;
let fields: string[];
let serial = 0;

const post = (values: Record<string, string>, address: string) =>
  postFrom(server.url, "/apply", values, { Origin: SITE, "X-Forwarded-For": address });

/** A fresh copy of the group form as a browser at `address` gets it: its answer fields and its hidden time. */
async function servedForm(address = "192.0.2.200") {
  const html = await (await fetch(`${server.url}/apply`, { headers: { "X-Forwarded-For": address } })).text();
  const started = /name="form_started" value="([^"]+)"/.exec(html)?.[1];
  expect(started).toBeDefined();
  return { html, started: started! };
}

/** A person's answers: a new name each time (a repeated name is refused as a duplicate). */
function answers(extra: Record<string, string> = {}) {
  serial++;
  const texts = [`Lantern ${serial}`, `lantern_${serial}`, "A friend", "Hello there"];
  return { ...Object.fromEntries(fields.map((field, i) => [field, texts[i] ?? "Yes"])), ...extra };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "dwell-spam-"));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    PUBLIC_URL: SITE,
    TRUST_PROXY: "true",
    // The production defaults for the fill time; small limits to reach them quickly.
    FORM_MIN_FILL_SECONDS: "3",
    RATE_LIMIT_APPLICATIONS: String(PER_CLIENT),
    RATE_LIMIT_APPLICATIONS_SITE: String(SITE_CEILING),
    // A light proof of work: this machine solves it for each test applicant (a browser does in reality).
    CROWD_CHALLENGE_WORK: "100",
  });
  fields = [...(await servedForm()).html.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
  expect(fields.length).toBeGreaterThan(1);
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the fill time", () => {
  it("refuses a post without the served form, or sent at once, and keeps the answers to send again", async () => {
    const blind = await post(answers(), "192.0.2.1");
    expect(blind.status).toBe(400);
    expect(await blind.text()).toContain("That was quicker than a person can fill in this form. Please check your answers and send it again.");

    const { started } = await servedForm("192.0.2.2");
    const values = answers({ form_started: started });
    const quick = await post(values, "192.0.2.2");
    expect(quick.status).toBe(400);
    const page = await quick.text();
    expect(page).toContain("That was quicker than a person can fill in this form.");
    // The answers are still in the form, and so is the time it was first served.
    expect(page).toContain(values[fields[0]!]!);
    expect(page).toContain(`name="form_started" value="${started}"`);

    // A person reading the message and sending again is through.
    await wait(3_000);
    const again = await post(values, "192.0.2.2");
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("The Ritual Is Complete");
  });

  it("refuses a forged or altered time, and one served to another client", async () => {
    const { started } = await servedForm("192.0.2.3");
    await wait(3_000);
    const [issued, signature] = started.split(".");
    for (const forged of [`${Number(issued) - 60_000}.${signature}`, `${issued}.${"A".repeat(43)}`, "1700000000000"]) {
      const response = await post(answers({ form_started: forged }), "192.0.2.3");
      expect(response.status, forged).toBe(400);
      await response.body?.cancel();
    }
    // A token fetched once cannot be replayed from the many addresses of a flood.
    const elsewhere = await post(answers({ form_started: started }), "192.0.2.33");
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain("That was quicker than a person can fill in this form.");
    const own = await post(answers({ form_started: started }), "192.0.2.3");
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });
});

describe("the honeypot", () => {
  it("refuses a post with the hidden field filled, which a person never sees", async () => {
    const { html, started } = await servedForm("192.0.2.4");
    // Hidden from sight and from assistive technology, and out of the tab order.
    const honeypot = /<div aria-hidden="true" class="[^"]*-left-\[10000px\][^"]*">(.*?)<\/div>/.exec(html)?.[1] ?? "";
    expect(honeypot).toContain('<label for="application-website">Leave this empty</label>');
    // HTML attribute names are case-insensitive (React writes autoComplete).
    const input = (/<input [^>]*>/.exec(honeypot)?.[0] ?? "").toLowerCase();
    for (const attribute of ['id="application-website"', 'name="website"', 'tabindex="-1"', 'autocomplete="off"']) expect(input).toContain(attribute);
    await wait(3_000);
    const response = await post(answers({ form_started: started, website: "https://spam.example" }), "192.0.2.4");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This form could not be sent.");
  });
});

describe("the duplicate answer", () => {
  it("is the spec's message for a repeat, until one client has met it 3 times in an hour; then nothing is told", async () => {
    const address = "192.0.2.50";
    const { started } = await servedForm(address);
    await wait(3_000);
    const mine = answers({ form_started: started });
    const first = await post(mine, address);
    expect(first.status).toBe(200);
    await first.body?.cancel();
    // Someone trying names that have applied: the first few are told, as the applicant would be.
    const probes: { status: number; text: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await post(mine, address);
      probes.push({ status: response.status, text: await response.text() });
    }
    expect(probes.map((p) => p.status)).toEqual([409, 409, 409, 429]);
    for (const probe of probes.slice(0, 3)) expect(probe.text).toContain("You have already submitted an application to join the group.");
    const refused = probes[3]!.text;
    expect(refused).toContain("You have sent a lot of applications in a short time.");
    expect(refused).not.toContain("already submitted");
    // A new name from that client is not even looked at for the hour: the answer cannot tell.
    const fresh = await post(answers({ form_started: started }), address);
    expect(fresh.status).toBe(429);
    await fresh.body?.cancel();
  });
});

describe("floods", () => {
  it("count an IPv6 client by its /64", async () => {
    // One /64: a form served to one of its addresses is good for the others.
    const { started } = await servedForm("2001:db8:9:1::99");
    const { started: otherStarted } = await servedForm("2001:db8:9:2::1");
    await wait(3_000);
    const statuses: number[] = [];
    for (let i = 1; i <= PER_CLIENT + 1; i++) {
      const response = await post(answers({ form_started: started }), `2001:db8:9:1::${i}`);
      statuses.push(response.status);
      await response.body?.cancel();
    }
    expect(statuses).toEqual([...Array<number>(PER_CLIENT).fill(200), 429]);
    // Another network is not held back.
    const other = await post(answers({ form_started: otherStarted }), "2001:db8:9:2::1");
    expect(other.status).toBe(200);
    await other.body?.cancel();
  });

  it("stop at the site-wide ceiling, which the dashboard shows", async () => {
    // Enough people, from as many addresses, that one minute holds more than the ceiling; and junk
    // (a filled honeypot) before them, which must not spend it.
    const addresses = Array.from({ length: 2 * SITE_CEILING + 1 }, (_, i) => `198.51.100.${i + 1}`);
    const tokens = await Promise.all(addresses.map(async (address) => (await servedForm(address)).started));
    // The ceiling counts per clock minute: start at a fresh one, which the tests above did not touch.
    await wait(Math.max(60_000 - (Date.now() % 60_000), 3_000) + 200);
    for (let i = 0; i < SITE_CEILING; i++) {
      const junk = await post(answers({ website: "https://spam.example" }), `203.0.113.${i + 1}`);
      expect(junk.status).toBe(400);
      await junk.body?.cancel();
    }
    const statuses: number[] = [];
    let busy = "";
    for (const [i, address] of addresses.entries()) {
      const response = await post(answers({ form_started: tokens[i]! }), address);
      statuses.push(response.status);
      if (response.status === 429) busy = await response.text();
      else await response.body?.cancel();
    }
    // The junk spent nothing: the minute's first SITE_CEILING people are through, and the next is not.
    expect(statuses.slice(0, SITE_CEILING + 1)).toEqual([...Array<number>(SITE_CEILING).fill(200), 429]);
    expect(busy).toContain("The site is receiving a lot of applications right now. Please try again in a minute.");

    createAccountWithCommand(dataDir, "warden@dwell.example", "a-long-warden-passphrase", "admin");
    const cookie = await signIn(server.url, "warden@dwell.example", "a-long-warden-passphrase", { Origin: SITE });
    const dashboard = await (await fetch(`${server.url}/admin`, { headers: { Cookie: cookie } })).text();
    expect(dashboard).toContain("Application forms");
    expect(dashboard).toMatch(/site-wide ceiling reached in \d+ minute\(s\), last at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(dashboard).toMatch(/over the site-wide ceiling \(20 a minute\)/);
    expect(dashboard).toMatch(/\d+ sent too quickly/);
    expect(dashboard).toMatch(/21 with the hidden field filled/);
    expect(dashboard).toMatch(/3 repeating a name or Discord ID that had applied/);
    expect(dashboard).toMatch(/2 from addresses that kept repeating names \(possible probing\)/);
  }, 120_000);

  it("let a person with the form's script through past the ceiling: a solved proof of work, once, for its own client", async () => {
    // Still the busy minute of the test above, or a new one: past the ceiling either way.
    const busy = Array.from({ length: SITE_CEILING + 1 }, (_, i) => `198.51.101.${i + 1}`);
    const served = await Promise.all([...busy, "198.51.102.1", "198.51.102.2"].map(async (address) => ({ address, html: (await servedForm(address)).html })));
    await wait(3_000);
    for (const { address, html } of served.slice(0, busy.length)) {
      const response = await post(answers({ form_started: /name="form_started" value="([^"]+)"/.exec(html)![1]! }), address);
      await response.body?.cancel();
    }
    const [person, other] = served.slice(busy.length);
    const started = (html: string) => /name="form_started" value="([^"]+)"/.exec(html)![1]!;
    const challenge = crowdChallengeIn(person!.html);
    expect(challenge).not.toBeNull();
    const proof = await solveCrowdChallenge(challenge!);

    const without = await post(answers({ form_started: started(person!.html) }), person!.address);
    expect(without.status).toBe(429);
    expect(await without.text()).toContain("The site is receiving a lot of applications right now. Please try again in a minute.");
    const through = await post(answers({ form_started: started(person!.html), crowd_proof: proof }), person!.address);
    expect(through.status).toBe(200);
    expect(await through.text()).toContain("The Ritual Is Complete");
    // The same proof again (a script replaying it), or from another client: refused, with a new challenge to solve.
    for (const [address, token] of [[person!.address, started(person!.html)], [other!.address, started(other!.html)]] as const) {
      const replay = await post(answers({ form_started: token, crowd_proof: proof }), address);
      expect(replay.status).toBe(429);
      const page = await replay.text();
      expect(page).toContain("your browser&#x27;s check for busy times could not be used");
      expect(crowdChallengeIn(page)).not.toBe(challenge);
    }
  }, 120_000);
});
