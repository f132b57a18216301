/**
 * Google Sheets `values.append`, authenticated as a service account: an RS256-signed JWT is
 * exchanged at the key's `token_uri` for an access token, cached until shortly before it expires.
 */
import { createSign } from "node:crypto";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import {
  answerOrDash,
  classifyHttpFailure,
  formatSubmittedAt,
  networkFailure,
  retryAfterHeader,
  truncate,
} from "./format";
import type { ApplicationNotification, DeliveryOutcome, NotificationChannel } from "./notification";

export const SHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets";
/** Google's limit for one cell. */
const CELL_LIMIT = 50_000;
/** Renew the token this long before Google says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export const ServiceAccountKeySchema = z.object({
  client_email: z.string().min(1),
  private_key: z.string().includes("PRIVATE KEY", { error: "expected a PEM private key" }),
  token_uri: z.url({ protocol: /^https?$/ }),
});
export type ServiceAccountKey = z.infer<typeof ServiceAccountKeySchema>;

export async function readServiceAccountKey(path: string): Promise<ServiceAccountKey> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not JSON (expected a service account key file)`, { cause: error });
  }
  const parsed = ServiceAccountKeySchema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join(".") || "key").join(", ");
    throw new Error(`${path} is not a usable service account key (check: ${fields})`);
  }
  return parsed.data;
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

export function signServiceAccountJwt(key: ServiceAccountKey, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT" }));
  const claims = base64url(
    JSON.stringify({ iss: key.client_email, scope: SHEETS_SCOPE, aud: key.token_uri, iat, exp: iat + 3600 }),
  );
  const signature = createSign("RSA-SHA256").update(`${header}.${claims}`).sign(key.private_key);
  return `${header}.${claims}.${base64url(signature)}`;
}

const TokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });

export function sheetRow(notification: ApplicationNotification): string[] {
  return [
    formatSubmittedAt(notification.submitted_at),
    notification.type,
    notification.event_title ?? "",
    notification.vrchat_username,
    notification.discord_id,
    ...notification.answers.map(({ question, answer }) => truncate(`${question}: ${answerOrDash(answer)}`, CELL_LIMIT)),
  ];
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
}): NotificationChannel {
  let cached: { token: string; expiresAt: number } | null = null;
  const appendUrl =
    `${apiUrl.replace(/\/+$/, "")}/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}` +
    // RAW stores what was typed as text: an answer starting with "=" never becomes a formula.
    `/values/${encodeURIComponent(range)}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`;

  async function accessToken(): Promise<string | DeliveryOutcome> {
    const current = now();
    if (cached && cached.expiresAt - TOKEN_MARGIN_MS > current.getTime()) return cached.token;
    let response: Response;
    try {
      response = await fetch(serviceAccount.token_uri, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
          assertion: signServiceAccountJwt(serviceAccount, current),
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      return networkFailure("Google token endpoint", error);
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const description = z.object({ error_description: z.string() }).safeParse(body);
      return classifyHttpFailure(
        "Google token endpoint",
        response.status,
        description.success ? description.data.error_description : undefined,
        retryAfterHeader(response.headers.get("Retry-After")),
      );
    }
    const token = TokenSchema.safeParse(body);
    if (!token.success) return { kind: "retry", error: "Google token endpoint answered without a token" };
    cached = { token: token.data.access_token, expiresAt: current.getTime() + token.data.expires_in * 1000 };
    return cached.token;
  }

  return {
    target: "google_sheets",
    async deliver(notification): Promise<DeliveryOutcome> {
      const token = await accessToken();
      if (typeof token !== "string") return token;
      let response: Response;
      try {
        response = await fetch(appendUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ values: [sheetRow(notification)] }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        return networkFailure("Google Sheets", error);
      }
      if (response.ok) {
        await response.body?.cancel();
        return { kind: "delivered" };
      }
      const body: unknown = await response.json().catch(() => undefined);
      const message = z.object({ error: z.object({ message: z.string() }) }).safeParse(body);
      const description = message.success ? message.data.error.message : undefined;
      if (response.status === 401) {
        // The token was revoked or expired early: fetch a new one next time.
        cached = null;
        return { kind: "retry", error: `Google Sheets answered 401${description ? `: ${description}` : ""}` };
      }
      return classifyHttpFailure("Google Sheets", response.status, description, retryAfterHeader(response.headers.get("Retry-After")));
    },
  };
}
