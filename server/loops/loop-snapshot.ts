// Reading a loop's stored snapshot: the checkpoint row and what it cites (its
// parts, the iteration row holding its last output), its seal checked with
// the native SHA-256, upgraded to the current snapshot version with config
// defaults re-applied. Every reader (runtime, services, detail page) uses this.
import { createHash } from "node:crypto";
import {
  citationsOf,
  decodeCheckpoint,
  restoreFromCheckpoint,
  type LoopSnapshot,
  type Sha256,
  type SnapshotCodec,
} from "../engine";
import type { LoopStore } from "../db/loop-store/loop-store.port";

/** What reading a stored snapshot needs of the loop store. */
export type CheckpointReader = Pick<LoopStore, "currentCheckpoint" | "citedByCheckpoint">;

/** The SHA-256 the runtime injects into the engine (about 30 times faster than a pure-JS one). */
export const nativeSha256: Sha256 = (text) => createHash("sha256").update(text).digest("hex");

export interface SnapshotReading {
  sha256?: Sha256;
  /** The snapshot versions to upgrade to; a test may simulate a newer release. */
  codec?: SnapshotCodec;
}

export interface StoredSnapshot {
  snapshot: LoopSnapshot;
  /** The iteration row the checkpoint cited for the last output, if any: the next checkpoint may cite it too. */
  outputRow: string | null;
  /** The parts it cites, which the loop has stored. */
  parts: Set<string>;
}

/** A stored checkpoint, restored; throws CheckpointIntegrityError when it cannot be. */
export async function readStoredCheckpoint(
  store: CheckpointReader,
  row: { loopId: string; state: string; sha256: string },
  reading: SnapshotReading = {},
): Promise<StoredSnapshot> {
  const sha256 = reading.sha256 ?? nativeSha256;
  const stored: unknown = JSON.parse(row.state);
  const cites = citationsOf(stored);
  const cited = await store.citedByCheckpoint(row.loopId, cites);
  const checkpoint = decodeCheckpoint(
    stored,
    { part: (hash) => cited.parts.get(hash), output: (id) => (id === cites.outputRow ? cited.output : undefined) },
    sha256,
  );
  const snapshot = restoreFromCheckpoint(checkpoint, {
    sha256,
    expectedHash: row.sha256,
    ...(reading.codec ? { codec: reading.codec } : {}),
  });
  return { snapshot, outputRow: cites.outputRow, parts: new Set(cites.parts) };
}

export async function restoreStoredCheckpoint(
  store: CheckpointReader,
  row: { loopId: string; state: string; sha256: string },
  reading: SnapshotReading = {},
): Promise<LoopSnapshot> {
  return (await readStoredCheckpoint(store, row, reading)).snapshot;
}

/** The snapshot the loop row points at, or null before its first checkpoint. */
export async function loadCurrentSnapshot(
  store: CheckpointReader,
  loopId: string,
  reading: SnapshotReading = {},
): Promise<LoopSnapshot | null> {
  const row = await store.currentCheckpoint(loopId);
  return row ? restoreStoredCheckpoint(store, row, reading) : null;
}
