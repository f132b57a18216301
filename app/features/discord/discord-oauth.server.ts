/**
 * A staff member links their own Discord account with Discord's sign-in (OAuth2, authorization
 * code, scope `identify`): the site asks Discord who signed in, and nothing more. Between the
 * callback (a GET, which writes nothing) and the staff member's confirmation (a POST), what
 * Discord answered is kept in a signed, short-lived cookie bound to that staff account.
 *
 * Facts from Discord's OAuth2 documentation: the authorize URL takes client_id, response_type=code,
 * scope, redirect_uri and state; the code is exchanged at POST /oauth2/token (form-encoded,
 * grant_type=authorization_code, the client's id and secret as HTTP Basic); GET /users/@me with
 * the Bearer token answers the user's id and username.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import packageJson from "../../../package.json" with { type: "json" };

export interface DiscordOAuthOptions {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  apiUrl: string;
  redirectUri: string;
  siteUrl: string;
  timeoutMs: number;
}

const TokenSchema = z.object({ access_token: z.string().min(1), token_type: z.string() });
const UserSchema = z.object({ id: z.string().regex(/^\d{17,20}$/), username: z.string(), global_name: z.string().nullish() });

export class DiscordOAuthError extends Error {
  override name = "DiscordOAuthError";
}

export function createDiscordOAuth(options: DiscordOAuthOptions) {
  const userAgent = `DiscordBot (${options.siteUrl}, ${packageJson.version})`;

  function authorizeUrl(state: string): string {
    const url = new URL(options.authorizeUrl);
    url.search = new URLSearchParams({ client_id: options.clientId, response_type: "code", scope: "identify", redirect_uri: options.redirectUri, state, prompt: "none" }).toString();
    return url.toString();
  }

  async function ask(path: string, init: RequestInit): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${options.apiUrl}${path}`, { ...init, headers: { "User-Agent": userAgent, ...init.headers }, redirect: "error", signal: AbortSignal.timeout(options.timeoutMs) });
    } catch {
      throw new DiscordOAuthError("Discord could not be reached. Try again in a moment.");
    }
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) throw new DiscordOAuthError(response.status === 400 || response.status === 401 ? "Discord did not accept the sign-in: start again." : "Discord could not be asked just now. Try again in a moment.");
    return body;
  }

  /** Who signed in with Discord, from the callback's code. */
  async function whoSignedIn(code: string): Promise<{ userId: string; name: string }> {
    const token = TokenSchema.safeParse(
      await ask("/oauth2/token", {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: options.redirectUri }).toString(),
      }),
    );
    if (!token.success) throw new DiscordOAuthError("Discord answered in an unexpected shape.");
    const user = UserSchema.safeParse(await ask("/users/@me", { headers: { Authorization: `Bearer ${token.data.access_token}` } }));
    if (!user.success) throw new DiscordOAuthError("Discord answered in an unexpected shape.");
    return { userId: user.data.id, name: user.data.global_name ?? user.data.username };
  }

  return { authorizeUrl, whoSignedIn };
}

export type DiscordOAuth = ReturnType<typeof createDiscordOAuth>;

/** A random state for one sign-in, kept in a cookie to compare with the callback's. */
export const newOAuthState = () => randomBytes(24).toString("base64url");

const LINK_VALID_MS = 10 * 60_000;

function mac(secret: string, text: string) {
  return createHmac("sha256", secret).update(`discord-link:${text}`).digest("base64url");
}

/** What Discord answered, sealed for the staff member who asked: their confirmation opens it. */
export function sealPendingLink(secret: string, staffId: string, account: { userId: string; name: string }, now: Date): string {
  const text = Buffer.from(JSON.stringify({ staffId, ...account, at: now.getTime() })).toString("base64url");
  return `${text}.${mac(secret, text)}`;
}

export function openPendingLink(secret: string, staffId: string, sealed: string | undefined, now: Date): { userId: string; name: string } | null {
  const [text, signature] = (sealed ?? "").split(".");
  if (!text || !signature) return null;
  const expected = Buffer.from(mac(secret, text));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(text, "base64url").toString());
  } catch {
    return null;
  }
  const parsed = z.object({ staffId: z.string(), userId: z.string(), name: z.string(), at: z.number() }).safeParse(raw);
  if (!parsed.success || parsed.data.staffId !== staffId || now.getTime() - parsed.data.at > LINK_VALID_MS) return null;
  return { userId: parsed.data.userId, name: parsed.data.name };
}
