// HMAC signatures for job requests to the app's own routes: an unsigned,
// forged, altered or replayed-much-later request is refused.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SIGNATURE_HEADER = "x-ralph-signature";
const MAX_SKEW_MS = 5 * 60_000;

export interface JobSigner {
  sign(body: string, now?: number): string;
  verify(body: string, header: string | null, now?: number): boolean;
}

export function createJobSigner(secret: string): JobSigner {
  const mac = (ts: number, body: string) => createHmac("sha256", secret).update(`${ts}.${body}`).digest();
  return {
    sign(body, now = Date.now()) {
      return `t=${now},v1=${mac(now, body).toString("hex")}`;
    },
    verify(body, header, now = Date.now()) {
      const match = /^t=(\d{1,16}),v1=([0-9a-f]{64})$/.exec(header ?? "");
      if (!match) return false;
      const ts = Number(match[1]);
      if (!Number.isFinite(ts) || Math.abs(now - ts) > MAX_SKEW_MS) return false;
      // Constant-time comparison: the signature leaks nothing through timing.
      return timingSafeEqual(mac(ts, body), Buffer.from(match[2]!, "hex"));
    },
  };
}

/** The configured secret, or one kept under the data directory (created once, mode 0600). */
export function resolveJobSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = join(dataDir, "job-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  try {
    writeFileSync(file, secret + "\n", { mode: 0o600, flag: "wx" });
  } catch {
    // Another process created it first: use theirs.
    return readFileSync(file, "utf8").trim();
  }
  chmodSync(file, 0o600);
  return secret;
}
