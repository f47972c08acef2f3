// The real clock, ids and randomness the engine receives in production.
import { randomUUID, randomInt } from "node:crypto";
import type { Deps } from "../engine";
import { nativeSha256 } from "../loops/loop-snapshot";

export const systemDeps: Deps = {
  now: () => Date.now(),
  newId: () => randomUUID(),
  random: () => randomInt(0, 2 ** 47) / 2 ** 47,
  sha256: nativeSha256,
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
