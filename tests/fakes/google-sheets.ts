/**
 * Google's OAuth token endpoint and the Sheets values.append endpoint. The token endpoint checks
 * the service account JWT's signature with the test's public key, and its claims.
 */
import { createVerify, type KeyObject } from "node:crypto";
import { startFake, type FakeRequest } from "./fake-server";

export interface SheetsAppend {
  path: string;
  authorization: string | undefined;
  values: string[][];
}

export interface SheetsFakeOptions {
  publicKey: KeyObject;
  clientEmail: string;
  /** Seconds a token lives. */
  expiresIn?: number;
}

export async function startFakeGoogleSheets({ publicKey, clientEmail, expiresIn = 3600 }: SheetsFakeOptions) {
  const issued = new Set<string>();
  let tokenRequests = 0;
  let url = "";

  function token(request: FakeRequest) {
    tokenRequests++;
    const form = new URLSearchParams(request.body);
    const assertion = form.get("assertion") ?? "";
    const [header, claims, signature] = assertion.split(".");
    const valid =
      form.get("grant_type") === "urn:ietf:params:oauth:grant-type:jwt-bearer" &&
      header !== undefined &&
      claims !== undefined &&
      signature !== undefined &&
      createVerify("RSA-SHA256").update(`${header}.${claims}`).verify(publicKey, Buffer.from(signature, "base64url"));
    const body = valid ? (JSON.parse(Buffer.from(claims!, "base64url").toString()) as Record<string, unknown>) : {};
    if (
      !valid ||
      body.iss !== clientEmail ||
      body.aud !== `${url}/token` ||
      body.scope !== "https://www.googleapis.com/auth/spreadsheets" ||
      typeof body.exp !== "number" ||
      body.exp - (body.iat as number) > 3600
    ) {
      return { reply: { status: 400, body: { error: "invalid_grant", error_description: "Invalid JWT" } } };
    }
    const accessToken = `token-${tokenRequests}`;
    issued.add(accessToken);
    return { reply: { status: 200, body: { access_token: accessToken, expires_in: expiresIn, token_type: "Bearer" } } };
  }

  const fake = await startFake<SheetsAppend>({
    accept(request) {
      if (request.path === "/token") return token(request);
      if (!/^\/v4\/spreadsheets\/[^/]+\/values\/[^/]+:append\?/.test(request.path)) {
        return { reply: { status: 404, body: { error: { code: 404, message: "Requested entity was not found." } } } };
      }
      const authorization = request.headers.authorization;
      if (!authorization || !issued.has(authorization.replace(/^Bearer /, ""))) {
        return { reply: { status: 401, body: { error: { code: 401, message: "Request had invalid authentication credentials." } } } };
      }
      const { values } = JSON.parse(request.body) as { values: string[][] };
      return { record: { path: request.path, authorization, values }, reply: { status: 200, body: { updates: { updatedRows: 1 } } } };
    },
    rateLimited: (seconds) => ({
      status: 429,
      body: { error: { code: 429, message: "Quota exceeded" } },
      headers: { "Retry-After": String(seconds) },
    }),
    rejected: () => ({ status: 403, body: { error: { code: 403, message: "The caller does not have permission" } } }),
  });
  url = fake.url;
  return {
    ...fake,
    get attempts() {
      return fake.attempts;
    },
    get tokenRequests() {
      return tokenRequests;
    },
    /** Forget every token issued, as if Google revoked them. */
    revokeTokens: () => issued.clear(),
  };
}
