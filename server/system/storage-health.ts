// Whether the data folder can take writes: a read-only mount or a full disk at
// start otherwise shows up only as 500s on every request. Probed by writing,
// not by reading mode bits: the server often runs as root, which ignores them.
import { closeSync, fsyncSync, mkdirSync, openSync, statfsSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

export interface StorageHealth {
  ok: boolean;
  /** Why not, in words an operator can act on; null when ok. */
  reason: string | null;
  /** Bytes free for unprivileged writes, when the file system says. */
  freeBytes: number | null;
}

/** Below this much free space the data folder counts as full: SQLite and the worktrees need room to write. */
export const MIN_FREE_BYTES = 32 * 1024 * 1024;

const CACHE_MS = 5_000;
const cache = new Map<string, { at: number; health: StorageHealth }>();

function describe(error: unknown, dir: string): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "EROFS") return `the data folder ${dir} is on a read-only file system`;
  if (code === "EACCES" || code === "EPERM") return `the data folder ${dir} is not writable by this process`;
  if (code === "ENOSPC" || code === "EDQUOT") return `the data folder ${dir} is full (no space left on the device)`;
  return `the data folder ${dir} cannot be written: ${(error as Error)?.message ?? String(error)}`;
}

function freeBytesOf(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/** Probes `dir` now (a small write, fsynced, then removed) and checks free space. */
export function probeStorage(dir: string, minFreeBytes = MIN_FREE_BYTES): StorageHealth {
  const probe = join(dir, `.health-probe-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(probe, "w");
    try {
      writeSync(fd, "ralph health probe\n".repeat(256));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { ok: false, reason: describe(error, dir), freeBytes: freeBytesOf(dir) };
  } finally {
    try {
      unlinkSync(probe);
    } catch {
      // Never created (read-only) or already gone.
    }
  }
  const freeBytes = freeBytesOf(dir);
  if (freeBytes !== null && freeBytes < minFreeBytes)
    return {
      ok: false,
      reason: `the data folder ${dir} is nearly full (${Math.floor(freeBytes / 1024 / 1024)} MiB free, needs ${Math.floor(minFreeBytes / 1024 / 1024)} MiB)`,
      freeBytes,
    };
  return { ok: true, reason: null, freeBytes };
}

/** The probe, reused for a few seconds so a busy health endpoint does not write on every call. */
export function storageHealth(dir: string): StorageHealth {
  const hit = cache.get(dir);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.health;
  const health = probeStorage(dir);
  cache.set(dir, { at: Date.now(), health });
  return health;
}
