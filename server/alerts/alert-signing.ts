// Signed alert bodies. Every request carries
//   X-Ralph-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
// so a receiver can check it came from this server and is fresh (reject a t
// more than 5 minutes old), the same scheme as Stripe's.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-ralph-signature";

export const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64url")}`;

export function signBody(secret: string, body: string, atSeconds: number): string {
  const mac = createHmac("sha256", secret).update(`${atSeconds}.${body}`).digest("hex");
  return `t=${atSeconds},v1=${mac}`;
}

/** For receivers (and tests): true when the header signs this body with this secret within `toleranceSeconds`. */
export function verifySignature(
  secret: string,
  body: string,
  header: string | null,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = Object.fromEntries((header ?? "").split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signBody(secret, body, t).split("v1=")[1]!, "hex");
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
