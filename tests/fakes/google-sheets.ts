/**
 * Google's OAuth token endpoint (POST /token) and the Sheets `values.append` endpoint. The token
 * endpoint checks the service account JWT as Google does: its RS256 signature against the test's
 * public key, and its claims. The append endpoint takes only the tokens it issued and not revoked.
 * Modes apply to both endpoints, as an outage at Google would.
 */
import { createVerify, type KeyObject } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { parseJsonBody, startFake, type FakeReply, type FakeRequest } from "./fake-server";

const SCOPE = "https://www.googleapis.com/auth/spreadsheets";
const CELL_LIMIT = 50_000;

export interface SheetsAppend {
  spreadsheetId: string;
  range: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  values: string[][];
}

export interface FakeGoogleSheetsOptions {
  /** The public half of the key pair whose private half the channel signs with. */
  publicKey: KeyObject;
  clientEmail: string;
  /** When given, any other spreadsheet is "not found". */
  spreadsheetId?: string;
  /** Seconds each token lives. */
  expiresIn?: number;
}

const apiError = (status: number, message: string, reason: string): FakeReply => ({
  status,
  body: { error: { code: status, message, status: reason } },
});
const invalidGrant = (description: string): FakeReply => ({
  status: 400,
  body: { error: "invalid_grant", error_description: description },
});

function decodeJson(part: string | undefined): Record<string, unknown> | undefined {
  if (!part) return undefined;
  const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}

export async function startFakeGoogleSheets({ publicKey, clientEmail, spreadsheetId, expiresIn = 3600 }: FakeGoogleSheetsOptions) {
  const issued = new Set<string>();
  let tokenRequests = 0;
  let tokenUri = "";

  /** Why Google would refuse this assertion, or undefined when it would grant a token. */
  function assertionProblem(form: URLSearchParams): string | undefined {
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return "Invalid grant_type.";
    const [header, claims, signature] = (form.get("assertion") ?? "").split(".");
    if (!header || !claims || !signature) return "Invalid JWT: malformed.";
    if (decodeJson(header)?.alg !== "RS256") return "Invalid JWT: expected RS256.";
    const signed = createVerify("RSA-SHA256")
      .update(`${header}.${claims}`)
      .verify(publicKey, Buffer.from(signature, "base64url"));
    if (!signed) return "Invalid JWT Signature.";
    const { iss, aud, scope, iat, exp } = decodeJson(claims) ?? {};
    if (iss !== clientEmail) return "Invalid issuer.";
    if (aud !== tokenUri) return "Invalid JWT: audience is not the token endpoint.";
    if (scope !== SCOPE) return "Invalid OAuth scope.";
    if (typeof iat !== "number" || typeof exp !== "number" || exp <= iat || exp - iat > 3600) {
      return "Invalid JWT: Token must be a short-lived token (60 minutes).";
    }
    if (exp * 1000 <= Date.now()) return "Invalid JWT: Token has expired.";
    return undefined;
  }

  let readOnly = false;

  function token(request: FakeRequest): FakeReply {
    tokenRequests++;
    if (!request.headers["content-type"]?.startsWith("application/x-www-form-urlencoded")) {
      return invalidGrant("Expected a form body.");
    }
    const problem = assertionProblem(new URLSearchParams(request.body));
    if (problem) return invalidGrant(problem);
    const accessToken = `ya29.fake-${tokenRequests}`;
    issued.add(accessToken);
    return { status: 200, body: { access_token: accessToken, expires_in: expiresIn, token_type: "Bearer" } };
  }

  function append(request: FakeRequest): { reply: FakeReply; delivery?: SheetsAppend } {
    const url = new URL(request.path, "http://sheets.test");
    // A batch update of values: an empty one writes nothing, but Google checks the caller may write.
    const batch = /^\/v4\/spreadsheets\/([^/]+)\/values:batchUpdate$/.exec(url.pathname);
    if (batch && request.method === "POST") {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      if (!bearer || !issued.has(bearer)) return { reply: apiError(401, "Request had invalid authentication credentials.", "UNAUTHENTICATED") };
      const id = decodeURIComponent(batch[1]!);
      if (spreadsheetId !== undefined && id !== spreadsheetId) return { reply: apiError(404, "Requested entity was not found.", "NOT_FOUND") };
      if (readOnly) return { reply: apiError(403, "The caller does not have permission", "PERMISSION_DENIED") };
      return { reply: { status: 200, body: { spreadsheetId: id, totalUpdatedRows: 0, responses: [] } } };
    }
    const match = /^\/v4\/spreadsheets\/([^/]+)\/values\/([^/]+):append$/.exec(url.pathname);
    if (request.method !== "POST" || !match) return { reply: apiError(404, "Not Found", "NOT_FOUND") };
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!bearer || !issued.has(bearer)) {
      return { reply: apiError(401, "Request had invalid authentication credentials.", "UNAUTHENTICATED") };
    }
    const id = decodeURIComponent(match[1]!);
    if (spreadsheetId !== undefined && id !== spreadsheetId) {
      return { reply: apiError(404, "Requested entity was not found.", "NOT_FOUND") };
    }
    const query = url.searchParams;
    if (!["RAW", "USER_ENTERED"].includes(query.get("valueInputOption") ?? "")) {
      return { reply: apiError(400, "Invalid valueInputOption.", "INVALID_ARGUMENT") };
    }
    const { values } = parseJsonBody(request) as { values: string[][] };
    if (values.flat().some((cell) => cell.length > CELL_LIMIT)) {
      return { reply: apiError(400, `Your input contains more than the maximum of ${CELL_LIMIT} characters in a single cell.`, "INVALID_ARGUMENT") };
    }
    const range = decodeURIComponent(match[2]!);
    return {
      delivery: { spreadsheetId: id, range, query, headers: request.headers, values },
      reply: {
        status: 200,
        body: {
          spreadsheetId: id,
          tableRange: `${range}!A1:Z1`,
          updates: { spreadsheetId: id, updatedRange: `${range}!A2`, updatedRows: values.length, updatedColumns: values[0]?.length ?? 0 },
        },
      },
    };
  }

  const isToken = (request: FakeRequest) => request.path === "/token";
  const fake = await startFake<SheetsAppend>({
    accept: (request) => (isToken(request) ? { reply: token(request) } : append(request)),
    rateLimited: (request, seconds) =>
      isToken(request)
        ? { status: 429, body: { error: "rate_limit_exceeded" }, headers: { "Retry-After": String(seconds) } }
        : {
            ...apiError(429, "Quota exceeded for quota metric 'Write requests'.", "RESOURCE_EXHAUSTED"),
            headers: { "Retry-After": String(seconds) },
          },
    rejected: (request) =>
      isToken(request)
        ? { status: 401, body: { error: "invalid_client", error_description: "The OAuth client was not found." } }
        : apiError(403, "The caller does not have permission", "PERMISSION_DENIED"),
  });
  tokenUri = `${fake.url}/token`;

  return {
    url: fake.url,
    /** The `token_uri` to put in the service account key. */
    tokenUri,
    requests: fake.requests,
    get attempts() {
      return fake.attempts;
    },
    /** Token requests answered in normal mode, granted or not. */
    get tokenRequests() {
      return tokenRequests;
    },
    setMode: fake.setMode,
    setDelay: fake.setDelay,
    close: fake.close,
    /** The sheet is shared with the service account as a reader only: writes are refused (403). */
    setReadOnly: (on: boolean) => {
      readOnly = on;
    },
    /** Forgets every token issued, as when Google revokes them or they expire early. */
    revokeTokens: () => issued.clear(),
  };
}
