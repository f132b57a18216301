/**
 * The passphrase rule, wherever one is set (the operator's command, a reset link, the dashboard's
 * change form): at least 12 characters, at most 128, and not one of the 10,000 most common
 * passwords. The list is the frequency-ranked one of zxcvbn-ts (installed with the site, read
 * offline). Passphrases set before the rule still sign in; the dashboard asks for a new one.
 */
import { dictionary } from "@zxcvbn-ts/language-common";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "~/utils/auth.server";
import { m } from "~/paraglide/messages";

export const COMMON_PASSWORDS_CHECKED = 10_000;

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary["passwords-common"]!.slice(0, COMMON_PASSWORDS_CHECKED));
  return common;
}


/** Why this passphrase may not be set, or null when it may. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return m.guard_password_too_short({ min: MIN_PASSWORD_LENGTH });
  if (password.length > MAX_PASSWORD_LENGTH) return m.guard_password_too_long({ max: MAX_PASSWORD_LENGTH });
  if (commonPasswords().has(password.toLowerCase())) return m.guard_password_too_common();
  return null;
}
