import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { solveCrowdChallenge } from "../../../tests/setup/crowd-proof";
import { issueCrowdChallenge, proofVerdict, readCrowdProof } from "./crowd-challenge.server";
import { admitSubmission } from "./spam-guard.server";

const SECRET = "the-site-secret-for-the-crowd-challenge-test";

describeEachDatabase("the crowd challenge", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  const now = new Date();
  /** A post with this proof, as the submission's admission counts it (past a ceiling of `ceiling` a minute). */
  const check = async (proof: unknown, client = "192.0.2.1", at = now, ceiling = 0) => {
    const reading = await readCrowdProof(SECRET, client, proof, at);
    const admission = await admitSubmission(database.db, {
      client,
      clientLimit: 1_000,
      duplicatesLimit: 3,
      siteCeiling: ceiling,
      proof: reading.kind === "valid" ? reading.use : undefined,
      now: at,
    });
    return admission.siteCount! > ceiling ? proofVerdict(reading, admission.proofUses) : "below the ceiling";
  };

  it("takes a solution of a challenge it gave this client, once", async () => {
    const challenge = (await issueCrowdChallenge(SECRET, "192.0.2.1", now, 40))!;
    expect(JSON.parse(Buffer.from(challenge, "base64url").toString()).parameters).toMatchObject({ algorithm: "PBKDF2/SHA-256", cost: 1_000, data: { client: "192.0.2.1" } });
    const proof = await solveCrowdChallenge(challenge);
    expect(await check(proof, "192.0.2.2")).toBe("other-client");
    expect(await check(proof)).toBe("solved");
    expect(await check(proof)).toBe("used");
  });

  it("refuses what is not a solution of its own, or too old, without failing", async () => {
    expect(await check(undefined)).toBe("missing");
    expect(await check("")).toBe("missing");
    for (const junk of ["not base64 json", Buffer.from("{}").toString("base64url"), "x".repeat(5_000)]) expect(await check(junk)).toBe("invalid");
    // Another site's challenge (another secret), and this site's with its client changed.
    const foreign = await solveCrowdChallenge((await issueCrowdChallenge("another-secret-entirely", "192.0.2.1", now, 40))!);
    expect(await check(foreign)).toBe("invalid");
    const own = JSON.parse(Buffer.from(await solveCrowdChallenge((await issueCrowdChallenge(SECRET, "192.0.2.9", now, 40))!), "base64url").toString());
    own.challenge.parameters.data.client = "192.0.2.1";
    expect(await check(Buffer.from(JSON.stringify(own)).toString("base64url"))).toBe("invalid");
    // Past its three hours.
    const old = await solveCrowdChallenge((await issueCrowdChallenge(SECRET, "192.0.2.1", new Date(now.getTime() - 4 * 60 * 60_000), 40))!);
    expect(await check(old)).toBe("expired");
  });

  it("is used up only past the ceiling", async () => {
    const proof = await solveCrowdChallenge((await issueCrowdChallenge(SECRET, "192.0.2.3", now, 40))!);
    expect(await check(proof, "192.0.2.3", now, 1_000_000)).toBe("below the ceiling");
    expect(await check(proof, "192.0.2.3", now, 1_000_000)).toBe("below the ceiling");
    // The crowd comes: it is still good once.
    expect(await check(proof, "192.0.2.3")).toBe("solved");
    expect(await check(proof, "192.0.2.3")).toBe("used");
  });

  it("is off with no work asked", async () => {
    expect(await issueCrowdChallenge(SECRET, "192.0.2.1", now, 0)).toBeNull();
  });
});
