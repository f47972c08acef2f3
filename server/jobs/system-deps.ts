// The real clock, ids and randomness the engine receives in production.
import { createHash, randomUUID, randomInt } from "node:crypto";
import type { Deps } from "../engine";

export const systemDeps: Deps = {
  now: () => Date.now(),
  newId: () => randomUUID(),
  random: () => randomInt(0, 2 ** 47) / 2 ** 47,
  // Native SHA-256: the same digests as the engine's pure one, many times faster.
  sha256: (text) => createHash("sha256").update(text).digest("hex"),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted || ms <= 0) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    }),
};
