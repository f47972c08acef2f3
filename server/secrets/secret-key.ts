// The key that seals stored secrets: RALPH_SECRET_KEY, or for the embedded
// default a key file under RALPH_DATA_DIR created once with mode 0600.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getEnv } from "../env";
import { secretKeyFrom, type SecretKey } from "./secret-box";

export const KEY_FILE = "secret-key";

export function resolveSecretKey(configured: string | undefined, dataDir: string): SecretKey {
  if (configured) return secretKeyFrom(Buffer.from(configured, "base64"));
  const file = join(dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
      chmodSync(file, 0o600);
    } catch {
      // Another process created it first: use theirs.
    }
  }
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  if (key.length !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
  return secretKeyFrom(key);
}

const cache = globalThis as unknown as { ralphSecretKey?: SecretKey };

/** This process's key, resolved on first use. */
export function getSecretKey(): SecretKey {
  const env = getEnv();
  cache.ralphSecretKey ??= resolveSecretKey(env.RALPH_SECRET_KEY, env.RALPH_DATA_DIR);
  return cache.ralphSecretKey;
}
