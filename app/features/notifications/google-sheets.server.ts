/**
 * Google Sheets `values.append`, one row per application, signed in as a service account: an
 * RS256 JWT is exchanged at the key's `token_uri` for an access token, which is kept until shortly
 * before it expires.
 */
import { createPrivateKey, createSign } from "node:crypto";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import {
  APPLICATION_TYPE_LABELS,
  formatSubmittedAt,
  callService,
  httpFailure,
  orDash,
  parseJson,
  retryAfterHeader,
  unconfirmed,
} from "./format";
import { truncate } from "~/utils/text";
import type { ApplicationNotification, DeliveryOutcome, NotificationChannel } from "./notification";
import { m } from "~/paraglide/messages";

const SHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets";
/** Google refuses the whole append when one cell holds more. */
export const SHEETS_CELL_LIMIT = 50_000;
/** Google's longest token lifetime, and the longest assertion it accepts. */
const JWT_LIFETIME_SECONDS = 3600;
/** A token this close to expiry is renewed first, so it cannot expire on the way to Google. */
const TOKEN_RENEWAL_MARGIN_MS = 60_000;

function isPrivateKey(pem: string) {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

/** Messages that name the problem, never the value: the value may be the private key. */
const missingOr = (problem: string) => (issue: { input: unknown }) => (issue.input === undefined ? "is missing" : problem);

export const ServiceAccountKeySchema = z.object({
  client_email: z.string({ error: missingOr("must be a string") }).min(1, "is empty"),
  private_key: z.string({ error: missingOr("must be a string") }).refine(isPrivateKey, "is not a PEM private key"),
  token_uri: z.url({ protocol: /^https?$/, error: missingOr("must be an http(s) URL") }),
}, { error: "must hold a JSON object" });
export type ServiceAccountKey = z.infer<typeof ServiceAccountKeySchema>;

/** Reads the key file downloaded from Google Cloud; throws an Error naming the file and the problem. */
export async function readServiceAccountKey(path: string): Promise<ServiceAccountKey> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : String(error);
    throw new Error(`cannot read ${path} (${code})`, { cause: error });
  }
  return parseServiceAccountKey(text, path);
}

/** A key's JSON (the file's text); throws an Error naming where it came from and the problem. */
export function parseServiceAccountKey(text: string, from = "the key"): ServiceAccountKey {
  const json = parseJson(text);
  if (json === undefined) throw new Error(`${from} is not JSON; expected a service account key file`);
  const parsed = ServiceAccountKeySchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "the file"} ${issue.message}`);
    throw new Error(`${from} is not a usable service account key: ${problems.join("; ")}`);
  }
  return parsed.data;
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

function signServiceAccountJwt(key: ServiceAccountKey, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT" }));
  const claims = base64url(
    JSON.stringify({ iss: key.client_email, scope: SHEETS_SCOPE, aud: key.token_uri, iat, exp: iat + JWT_LIFETIME_SECONDS }),
  );
  const signature = createSign("RSA-SHA256").update(`${header}.${claims}`).sign(key.private_key);
  return `${header}.${claims}.${base64url(signature)}`;
}

const TokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });
const TokenErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });
const AppendedSchema = z.object({ updates: z.object({ updatedRows: z.number().int().positive() }) });
const ApiErrorSchema = z.object({ error: z.object({ message: z.string() }) });

function sheetRow(notification: ApplicationNotification): string[] {
  return [
    formatSubmittedAt(notification.submitted_at),
    notification.edited ? m.ntf_type_edited({ type: APPLICATION_TYPE_LABELS[notification.type] }) : APPLICATION_TYPE_LABELS[notification.type],
    notification.event_title ?? "",
    notification.vrchat_username,
    notification.discord_id,
    ...notification.answers.map(({ question, answer }) => `${question}: ${orDash(answer)}`),
  ].map((cell) => truncate(cell, SHEETS_CELL_LIMIT));
}

export function createGoogleSheetsChannel({
  spreadsheetId,
  serviceAccount,
  range = "Sheet1",
  apiUrl = "https://sheets.googleapis.com",
  timeoutMs = 10_000,
  now = () => new Date(),
}: {
  spreadsheetId: string;
  serviceAccount: ServiceAccountKey;
  range?: string;
  apiUrl?: string;
  timeoutMs?: number;
  now?: () => Date;
}): NotificationChannel & { checkWritable(): Promise<DeliveryOutcome> } {
  const sheetUrl = `${apiUrl.replace(/\/+$/, "")}/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}`;
  const appendUrl =
    `${apiUrl.replace(/\/+$/, "")}/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}/values/${encodeURIComponent(range)}:append` +
    // RAW stores each cell as the text it is: an answer such as "=IMPORTXML(…)" or "+1" stays a
    // string and never becomes a formula (USER_ENTERED would evaluate it in the admins' sheet).
    "?valueInputOption=RAW&insertDataOption=INSERT_ROWS";

  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string | DeliveryOutcome> | undefined;

  async function requestToken(): Promise<string | DeliveryOutcome> {
    const issuedAt = now();
    const answer = await callService("Google OAuth", serviceAccount.token_uri, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: signServiceAccountJwt(serviceAccount, issuedAt),
      }),
      timeoutMs,
    });
    if (!answer.sent) return answer.outcome;
    const { response, body } = answer;
    if (!response.ok) {
      const parsed = TokenErrorSchema.safeParse(body);
      const description = parsed.success
        ? [parsed.data.error, parsed.data.error_description].filter(Boolean).join(": ")
        : undefined;
      return httpFailure("Google OAuth", response.status, description, retryAfterHeader(response.headers.get("Retry-After")));
    }
    const token = TokenSchema.safeParse(body);
    if (!token.success) return unconfirmed("Google OAuth", response.status);
    cached = { token: token.data.access_token, expiresAt: issuedAt.getTime() + token.data.expires_in * 1000 };
    return cached.token;
  }

  function accessToken(): Promise<string | DeliveryOutcome> {
    if (cached && now().getTime() < cached.expiresAt - TOKEN_RENEWAL_MARGIN_MS) return Promise.resolve(cached.token);
    // The outbox delivers a batch at once: the deliveries share one sign-in instead of one each.
    pending ??= requestToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  return {
    /**
     * Whether the service account may write to the sheet, without changing it: a batch update of no
     * values (Google checks the write permission; an editor gets 200, a reader 403).
     */
    async checkWritable(): Promise<DeliveryOutcome> {
      const token = await accessToken();
      if (typeof token !== "string") return token;
      const answer = await callService("Google Sheets", `${sheetUrl}/values:batchUpdate`, {
        headers: { Authorization: `Bearer ${token}` },
        body: JSON.stringify({ valueInputOption: "RAW", data: [] }),
        timeoutMs,
      });
      if (!answer.sent) return answer.outcome;
      if (answer.response.ok) return { kind: "delivered" };
      const parsed = ApiErrorSchema.safeParse(answer.body);
      return httpFailure("Google Sheets", answer.response.status, parsed.success ? parsed.data.error.message : undefined, undefined);
    },
    target: "google_sheets",
    // A sign-in, then the append: two requests at most, each within the timeout.
    maxDeliveryMs: 2 * timeoutMs,
    async deliver(notification): Promise<DeliveryOutcome> {
      const token = await accessToken();
      if (typeof token !== "string") return token;
      const answer = await callService("Google Sheets", appendUrl, {
        headers: { Authorization: `Bearer ${token}` },
        body: JSON.stringify({ values: [sheetRow(notification)] }),
        timeoutMs,
      });
      if (!answer.sent) return answer.outcome;
      const { response, body } = answer;
      if (response.ok) {
        return AppendedSchema.safeParse(body).success ? { kind: "delivered" } : unconfirmed("Google Sheets", response.status);
      }
      const parsed = ApiErrorSchema.safeParse(body);
      const description = parsed.success ? parsed.data.error.message : undefined;
      if (response.status === 401) {
        // The token was revoked or expired early: sign in again on the next attempt. Unless a
        // delivery running alongside already did.
        if (cached?.token === token) cached = undefined;
        return { kind: "retry", error: `Google Sheets answered 401${description ? `: ${description}` : ""}` };
      }
      return httpFailure("Google Sheets", response.status, description, retryAfterHeader(response.headers.get("Retry-After")));
    },
  };
}
