/**
 * What the Security page shows of an enrolment: the authenticator's otpauth:// address as a QR
 * code (drawn as one SVG path, so no script or image is needed) and its secret as text, grouped
 * for reading aloud or typing.
 */
import { encode } from "uqr";
import { TOTP_ISSUER } from "~/utils/auth.server";

/** A code as typed: spaces (apps show "123 456") are not part of it. */
export function typedCode(text: string): string {
  return text.replace(/\s/g, "").slice(0, 64);
}

export interface Enrolment {
  totpUri: string;
  /** The base32 secret, in groups of four. */
  secret: string;
  /** The QR code: `size` modules a side, dark ones drawn by `path`. */
  qr: { size: number; path: string };
}

/** The enrolment to show for an address better-auth made, or null when it is not one of ours. */
export function describeEnrolment(totpUri: string): Enrolment | null {
  let url: URL;
  try {
    url = new URL(totpUri);
  } catch {
    return null;
  }
  const secret = url.searchParams.get("secret") ?? "";
  if (url.protocol !== "otpauth:" || url.host !== "totp" || !/^[A-Z2-7]{16,128}=*$/.test(secret)) return null;
  if (url.searchParams.get("issuer") !== TOTP_ISSUER) return null;
  const { size, data } = encode(totpUri, { ecc: "M", border: 0 });
  const path = data
    .flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`M${x} ${y}h1v1h-1z`] : [])))
    .join("");
  return { totpUri, secret: secret.replace(/=+$/, "").match(/.{1,4}/g)!.join(" "), qr: { size, path } };
}
