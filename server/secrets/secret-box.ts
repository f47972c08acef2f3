/**
 * AES-256-GCM for stored secrets. Each value gets a fresh 96-bit IV; the row
 * id is authenticated as associated data, so a ciphertext copied onto another
 * row does not decrypt. The key id in the envelope says which key sealed it,
 * so a wrong or rotated key fails with a clear message instead of garbage.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export interface SecretKey {
  id: string;
  key: Buffer;
}

export function secretKeyFrom(key: Buffer): SecretKey {
  if (key.length !== 32) throw new Error("the secret key must be 32 bytes");
  return { id: createHash("sha256").update("ralph-secret-key:").update(key).digest("hex").slice(0, 8), key };
}

export class SecretDecryptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretDecryptError";
  }
}

const aad = (rowId: string) => Buffer.from(`secret:${rowId}`, "utf8");

export function sealSecret(key: SecretKey, rowId: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.key, iv);
  cipher.setAAD(aad(rowId));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `v1:${key.id}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
}

export function openSecret(key: SecretKey, rowId: string, envelope: string): string {
  const [version, keyId, data] = envelope.split(":");
  if (version !== "v1" || !keyId || !data) throw new SecretDecryptError("unknown secret format");
  if (keyId !== key.id)
    throw new SecretDecryptError(
      `sealed with another key (${keyId}); set RALPH_SECRET_KEY to the key it was stored with`,
    );
  const raw = Buffer.from(data, "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, raw.subarray(0, 12));
    decipher.setAAD(aad(rowId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretDecryptError("the stored secret failed authentication (altered or moved)");
  }
}

/** What the UI may show: the last 4 characters, only when that leaves most of the value hidden. */
export const lastFour = (value: string) => (value.length >= 12 ? value.slice(-4) : "");
