/**
 * Snapshot versions. Every stored snapshot carries the version of the shape
 * it was written in; restoring walks it up to the current one through
 * `snapshotUpgraders` (vN -> vN+1, one function per step) and then re-parses
 * its config, so defaults added since reach loops that were already running.
 * Upgrading Ralph Control with loops in flight is therefore safe.
 *
 * To change the snapshot's shape: bump SNAPSHOT_VERSION, add the upgrader from
 * the previous version here (never edit a released one), and cover it with a
 * test that restores a checkpoint written before the bump. A new config field
 * with a default needs no upgrader: the re-parse fills it in.
 */
import { parseLoopConfig, type LoopConfig } from "./config.schema";

export const SNAPSHOT_VERSION = 1;

/** Takes a snapshot of version N (plain JSON) and returns it as version N+1. */
export type SnapshotUpgrader = (snapshot: Record<string, unknown>) => Record<string, unknown>;

/** Keyed by the version each one upgrades from. Empty while version 1 is the only one. */
export const snapshotUpgraders: Readonly<Record<number, SnapshotUpgrader>> = {};

/** What restoring needs to know about versions; a test may pass a future one. */
export interface SnapshotCodec {
  version: number;
  upgraders: Readonly<Record<number, SnapshotUpgrader>>;
  /** Validates a config and fills its defaults. */
  parseConfig: (input: unknown) => LoopConfig;
}

export const currentSnapshotCodec: SnapshotCodec = {
  version: SNAPSHOT_VERSION,
  upgraders: snapshotUpgraders,
  parseConfig: parseLoopConfig,
};

export class SnapshotVersionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SnapshotVersionError";
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Walks a stored snapshot up to `codec.version`; refuses one written by a newer release. */
export function upgradeSnapshot(raw: unknown, codec: SnapshotCodec = currentSnapshotCodec): Record<string, unknown> {
  if (!isRecord(raw)) throw new SnapshotVersionError("a snapshot must be an object");
  const from = raw.version;
  if (typeof from !== "number" || !Number.isInteger(from) || from < 1) {
    throw new SnapshotVersionError(`unknown snapshot version ${JSON.stringify(from)}`);
  }
  if (from > codec.version) {
    throw new SnapshotVersionError(
      `the snapshot was written by a newer release (version ${from}; this one reads up to ${codec.version})`,
    );
  }
  let current = raw;
  for (let version = from; version < codec.version; version++) {
    const upgrade = codec.upgraders[version];
    if (!upgrade) throw new SnapshotVersionError(`no upgrader from snapshot version ${version}`);
    current = upgrade(current);
    if (current.version !== version + 1) {
      throw new SnapshotVersionError(`the upgrader from version ${version} did not produce version ${version + 1}`);
    }
  }
  return current;
}
