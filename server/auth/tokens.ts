// Bearer tokens (sessions, share links): 256 bits from the OS CSPRNG, sent to
// the client once; only their SHA-256 is stored, so a database leak does not
// hand out working sessions or links.
import { createHash, randomBytes } from "node:crypto";

export const newToken = () => randomBytes(32).toString("base64url");

export const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** Well-formed tokens only; anything else is refused before touching the database. */
export const looksLikeToken = (value: string) => /^[A-Za-z0-9_-]{43}$/.test(value);
