// The server's VAPID key pair (RFC 8292), which identifies it to browsers'
// push services: generated once, kept beside the secret key under
// RALPH_DATA_DIR (mode 0600), so every subscription stays valid across restarts.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import webpush from "web-push";
import { getEnv } from "../env";

export const VAPID_FILE = "vapid-keys.json";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export function resolveVapidKeys(dataDir: string): VapidKeys {
  const file = join(dataDir, VAPID_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, JSON.stringify(webpush.generateVAPIDKeys()) + "\n", { mode: 0o600, flag: "wx" });
      chmodSync(file, 0o600);
    } catch {
      // Another process created it first: use theirs.
    }
  }
  const keys = JSON.parse(readFileSync(file, "utf8")) as Partial<VapidKeys>;
  if (typeof keys.publicKey !== "string" || typeof keys.privateKey !== "string") {
    throw new Error(`${file} does not hold a VAPID key pair`);
  }
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}

const cache = globalThis as unknown as { ralphVapidKeys?: VapidKeys };

/** This process's VAPID keys, resolved on first use. */
export function getVapidKeys(): VapidKeys {
  cache.ralphVapidKeys ??= resolveVapidKeys(getEnv().RALPH_DATA_DIR);
  return cache.ralphVapidKeys;
}
