/**
 * A staff member, or an applicant, links their own Discord account with Discord's sign-in (OAuth2,
 * authorization code, scope `identify`): the site asks Discord who signed in, and nothing more. Between
 * the callback (a GET, which writes nothing) and the person's confirmation (a POST), what Discord
 * answered is kept in a signed, short-lived cookie bound to that staff account or that application.
 * The staff's and the applicants' sign-ins come back to two addresses (`redirectUri`, `applicantRedirectUri`),
 * both registered with the same Discord application.
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
  /** Where an applicant's sign-in (from their status page) comes back. */
  applicantRedirectUri: string;
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

  /** Who signs in: a staff member (back to the Security page's link) or an applicant (back to theirs). */
  type Who = "staff" | "applicant";
  const redirectOf = (who: Who) => (who === "applicant" ? options.applicantRedirectUri : options.redirectUri);

  function authorizeUrl(state: string, who: Who = "staff"): string {
    const url = new URL(options.authorizeUrl);
    url.search = new URLSearchParams({ client_id: options.clientId, response_type: "code", scope: "identify", redirect_uri: redirectOf(who), state, prompt: "none" }).toString();
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
  async function whoSignedIn(code: string, who: Who = "staff"): Promise<{ userId: string; name: string }> {
    const token = TokenSchema.safeParse(
      await ask("/oauth2/token", {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectOf(who) }).toString(),
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

/** A value signed with the site's secret for one purpose (`purpose` is part of what is signed). */
function seal(secret: string, purpose: string, value: object, now: Date): string {
  const text = Buffer.from(JSON.stringify({ ...value, at: now.getTime() })).toString("base64url");
  return `${text}.${mac(secret, `${purpose}${text}`)}`;
}

/** A sealed value read back: its signature for this purpose checked, younger than LINK_VALID_MS, in its shape. */
function unseal<T extends z.ZodRawShape>(secret: string, purpose: string, sealed: string | undefined, shape: T, now: Date): z.infer<z.ZodObject<T>> | null {
  const [text, signature] = (sealed ?? "").split(".");
  if (!text || !signature) return null;
  const expected = Buffer.from(mac(secret, `${purpose}${text}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(text, "base64url").toString());
  } catch {
    return null;
  }
  const at = z.object({ at: z.number() }).safeParse(raw);
  if (!at.success || now.getTime() - at.data.at > LINK_VALID_MS) return null;
  const parsed = z.object(shape).safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/**
 * What Discord answered, sealed for whom it was asked (a staff account's id, or an application's status
 * token for an applicant): their confirmation opens it.
 */
export function sealPendingLink(secret: string, staffId: string, account: { userId: string; name: string }, now: Date): string {
  return seal(secret, "", { staffId, ...account }, now);
}

export function openPendingLink(secret: string, staffId: string, sealed: string | undefined, now: Date): { userId: string; name: string } | null {
  const opened = unseal(secret, "", sealed, { staffId: z.string(), userId: z.string(), name: z.string() }, now);
  return opened && opened.staffId === staffId ? { userId: opened.userId, name: opened.name } : null;
}

/**
 * An applicant's sign-in under way: the application it is for (its status token, which the applicant
 * already holds) and the state Discord must send back, sealed in a short-lived cookie.
 */
export function sealApplicantStart(secret: string, token: string, state: string, now: Date): string {
  return seal(secret, "applicant:", { token, state }, now);
}

export function openApplicantStart(secret: string, sealed: string | undefined, now: Date): { token: string; state: string } | null {
  const opened = unseal(secret, "applicant:", sealed, { token: z.string().max(100), state: z.string().max(100) }, now);
  return opened ? { token: opened.token, state: opened.state } : null;
}
