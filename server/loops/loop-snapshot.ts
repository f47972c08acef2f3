// Reading a loop's stored snapshot: the checkpoint row, its seal checked with
// the native SHA-256, upgraded to the current snapshot version with config
// defaults re-applied. Every reader (runtime, services, detail page) uses this.
import { createHash } from "node:crypto";
import { restoreFromCheckpoint, type LoopSnapshot, type Sha256, type SnapshotCodec } from "../engine";
import type { Db } from "../db/client";
import { currentCheckpoint } from "../db/loop-steps.repo";

/** The SHA-256 the runtime injects into the engine (about 30 times faster than a pure-JS one). */
export const nativeSha256: Sha256 = (text) => createHash("sha256").update(text).digest("hex");

export interface SnapshotReading {
  sha256?: Sha256;
  /** The snapshot versions to upgrade to; a test may simulate a newer release. */
  codec?: SnapshotCodec;
}

export function restoreStoredCheckpoint(row: { state: string; sha256: string }, reading: SnapshotReading = {}) {
  return restoreFromCheckpoint(JSON.parse(row.state), {
    sha256: reading.sha256 ?? nativeSha256,
    expectedHash: row.sha256,
    ...(reading.codec ? { codec: reading.codec } : {}),
  });
}

/** The snapshot the loop row points at, or null before its first checkpoint. */
export async function loadCurrentSnapshot(
  db: Db,
  loopId: string,
  reading: SnapshotReading = {},
): Promise<LoopSnapshot | null> {
  const row = await currentCheckpoint(db, loopId);
  return row ? restoreStoredCheckpoint(row, reading) : null;
}
