import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

/** The crowd challenge a served application form carries (its data attribute), if any. */
export function crowdChallengeIn(html: string): string | null {
  const attribute = /data-crowd-challenge="([^"]+)"/.exec(html)?.[1];
  return attribute ? attribute.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&#x27;", "'") : null;
}

/** Solves a served challenge (base64url JSON) as the form's script does, and encodes the proof the form posts. */
export async function solveCrowdChallenge(challengeText: string): Promise<string> {
  const challenge = JSON.parse(Buffer.from(challengeText, "base64url").toString());
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("the crowd challenge was not solved");
  return Buffer.from(JSON.stringify({ challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } })).toString("base64url");
}
