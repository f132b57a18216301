import { Secret, TOTP } from "otpauth";

const PERIOD_MS = 30_000;
const stepNow = () => Math.floor(Date.now() / PERIOD_MS);

/**
 * An authenticator app for a key the Security page showed. The site takes each code once (a code of
 * a step at or before the last accepted one is refused), so `fresh()` gives a code of a step not yet
 * used: the current one, else the next (the site accepts one step either side), else it waits.
 */
export function authenticator(base32: () => string) {
  let lastStep = 0;
  const codeOf = (step: number) => new TOTP({ secret: Secret.fromBase32(base32()), digits: 6, period: 30 }).generate({ timestamp: step * PERIOD_MS });
  return {
    codeOf,
    /** The step of the code last given by `fresh`. */
    lastStep: () => lastStep,
    async fresh(): Promise<string> {
      const step = Math.max(stepNow(), lastStep + 1);
      while (step > stepNow() + 1) await new Promise((resolve) => setTimeout(resolve, 500));
      lastStep = step;
      return codeOf(step);
    },
  };
}
