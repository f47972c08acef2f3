// Whether the data folder can take writes: a read-only mount or a full disk at
// start otherwise shows up only as 500s on every request. Probed by writing,
// not by reading mode bits: the server often runs as root, which ignores them.
import { mkdir, open, statfs, unlink } from "node:fs/promises";
import { join } from "node:path";

export interface StorageHealth {
  ok: boolean;
  /** Why not, in words an operator can act on; null when ok. */
  reason: string | null;
  /** Bytes free for unprivileged writes, when the file system says. */
  freeBytes: number | null;
  /** How old the answer is (the health report answers from the last probe while a new one runs). */
  ageMs?: number;
}

/** Below this much free space the data folder counts as full: SQLite and the worktrees need room to write. */
export const MIN_FREE_BYTES = 32 * 1024 * 1024;

const CACHE_MS = 5_000;
/** How long a report waits for a fresh probe before answering from the last one. */
export const STORAGE_WAIT_MS = 300;
/** The first report has no last probe to stand in: it waits longer, still inside a probe's second. */
const FIRST_WAIT_MS = 450;
/** A probe still unfinished after this long is the answer: the disk or mount has stalled. */
export const STALLED_MS = 2_000;
const cache = new Map<string, { at: number; health: StorageHealth }>();
const running = new Map<string, { since: number; done: Promise<StorageHealth> }>();

function describe(error: unknown, dir: string): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "EROFS") return `the data folder ${dir} is on a read-only file system`;
  if (code === "EACCES" || code === "EPERM") return `the data folder ${dir} is not writable by this process`;
  if (code === "ENOSPC" || code === "EDQUOT") return `the data folder ${dir} is full (no space left on the device)`;
  return `the data folder ${dir} cannot be written: ${(error as Error)?.message ?? String(error)}`;
}

async function freeBytesAsync(dir: string): Promise<number | null> {
  try {
    const s = await statfs(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/**
 * Probes `dir` now (a small write, fsynced, then removed) and checks free space. Off the main thread:
 * a stalled disk blocks a pool thread, never the server.
 */
export async function probeStorage(dir: string, minFreeBytes = MIN_FREE_BYTES): Promise<StorageHealth> {
  const probe = join(dir, `.health-probe-${process.pid}`);
  try {
    await mkdir(dir, { recursive: true });
    const file = await open(probe, "w");
    try {
      await file.write("ralph health probe\n".repeat(256));
      await file.sync();
    } finally {
      await file.close();
    }
  } catch (error) {
    return { ok: false, reason: describe(error, dir), freeBytes: await freeBytesAsync(dir) };
  } finally {
    await unlink(probe).catch(() => undefined);
  }
  const freeBytes = await freeBytesAsync(dir);
  if (freeBytes !== null && freeBytes < minFreeBytes)
    return {
      ok: false,
      reason: `the data folder ${dir} is nearly full (${Math.floor(freeBytes / 1024 / 1024)} MiB free, needs ${Math.floor(minFreeBytes / 1024 / 1024)} MiB)`,
      freeBytes,
    };
  return { ok: true, reason: null, freeBytes };
}

/**
 * The data folder's health within about STORAGE_WAIT_MS, whatever the disk does: the probe runs in the
 * background (one at a time per folder, reused for a few seconds); a report waits briefly for it, then
 * answers from the last probe with its age. A probe unfinished after STALLED_MS (or the first one, with
 * nothing to stand in) is reported as not ok: the data folder is not taking writes.
 */
export async function storageHealth(dir: string, waitMs = STORAGE_WAIT_MS): Promise<StorageHealth> {
  const last = cache.get(dir);
  if (last && Date.now() - last.at < CACHE_MS) return { ...last.health, ageMs: Date.now() - last.at };
  let run = running.get(dir);
  if (!run) {
    const started = {
      since: Date.now(),
      done: Promise.resolve<StorageHealth>({ ok: true, reason: null, freeBytes: null }),
    };
    started.done = probeStorage(dir).then((health) => {
      cache.set(dir, { at: Date.now(), health });
      if (running.get(dir) === started) running.delete(dir);
      return health;
    });
    running.set(dir, (run = started));
  }
  let timer: NodeJS.Timeout | undefined;
  const fresh = await Promise.race([
    run.done,
    new Promise<null>(
      (resolve) => (timer = setTimeout(() => resolve(null), last ? waitMs : Math.max(waitMs, FIRST_WAIT_MS))),
    ),
  ]).finally(() => clearTimeout(timer));
  if (fresh) return { ...fresh, ageMs: 0 };
  const pendingMs = Date.now() - run.since;
  if (last && pendingMs < STALLED_MS) return { ...last.health, ageMs: Date.now() - last.at };
  return {
    ok: false,
    reason: `the data folder ${dir} has not finished a small write in ${pendingMs} ms (a stalled disk or mount)`,
    freeBytes: last?.health.freeBytes ?? null,
    ageMs: 0,
  };
}
