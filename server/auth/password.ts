/**
 * Password hashing with scrypt (memory-hard, in node:crypto: no native
 * add-on to build or download). Stored as
 * `scrypt$<log2 N>$<r>$<p>$<salt b64>$<hash b64>`, so the cost can be raised
 * later and old hashes still verify (and are flagged for rehash).
 *
 * N=2^15, r=8 uses 32 MiB per hash and ~50-100 ms here: OWASP's minimum for
 * scrypt is N=2^17/r=8/p=1 *or* an equivalent trade; 2^15 with r=8 keeps a
 * sign-in burst from exhausting memory on a small host while brute-force is
 * separately rate-limited per account and per IP.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LEN = 32;

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LEN, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, LOG_N, R, P);
  return ["scrypt", LOG_N, R, P, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? "").split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") {
    // No usable hash (e.g. a disabled or invited account): spend the same time anyway.
    await derive(password, DUMMY_SALT, LOG_N, R, P);
    return false;
  }
  const [, logN, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  // Only parameters this module could have written: a tampered row cannot make us allocate gigabytes.
  if (!/^(1[0-9]|20)$/.test(logN) || !/^([1-9]|1[0-6])$/.test(r) || !/^[1-4]$/.test(p)) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), Number(logN), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const DUMMY_SALT = randomBytes(16);

/** The hash used when an email is unknown, so timing does not reveal which emails exist. */
export const burnPasswordTime = (password: string) => verifyPassword(password, null);

export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `Passwords need at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `Passwords can have at most ${PASSWORD_MAX} characters`;
  return null;
}
