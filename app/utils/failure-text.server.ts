/**
 * What may be said of a failure, in the log and to the admins. A failed query's message carries the
 * query's values (people's names, answers, emails): they are never written anywhere, and the admins
 * read a plain sentence where the database failed, never its internals.
 */

const QUERY_PARAMETERS = /\nparams: [\s\S]*$/;

export const DATABASE_FAILURE = "Dwell's database could not record it; it will be tried again.";

/** A message without a failed query's values (any text: an error's message, or a field passed to the log). */
export function scrubbed(message: string): string {
  const at = message.indexOf("Failed query: ");
  if (at < 0) return message;
  return message.replace(QUERY_PARAMETERS, "\nparams: (not logged)");
}

/** An error the database raised (drizzle wraps the driver's, whose SQLSTATE is on `cause.code`). */
export function isDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "DrizzleQueryError" || error.message.startsWith("Failed query: ")) return true;
  const { cause } = error;
  return typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" && /^[0-9A-Z]{5}$/.test(cause.code);
}

/** A failure as the admins read it on a card: a plain sentence for the database, otherwise its scrubbed message. */
export function failureText(error: unknown): string {
  if (isDatabaseError(error)) return DATABASE_FAILURE;
  if (error instanceof Error) return scrubbed(error.message);
  return scrubbed(String(error));
}
