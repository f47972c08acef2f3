/**
 * Warm sandboxes, one per policy (the writable folders, the hidden and the
 * readable ones, the network allowlist and loopback forwards, the admin's hosts) and per identity of those folders on
 * disk, each used by one command at a time. A command gets an idle one or a
 * new one; after it, the sandbox is put back (warm-sandbox.ts) and closed
 * once idle for a minute. A folder replaced since (a worktree removed and
 * made again) is a different policy: the old sandbox, bound to the old
 * folder, is never used for it.
 */
import { lstatSync } from "node:fs";
import type { SandboxPlan } from "./sandbox-runtime";
import { WarmSandbox, warmUnsupported } from "./warm-sandbox";

const IDLE_MS = 60_000;
/** Beyond this many at once, further commands get a sandbox of their own (as with warm sandboxes off). */
const MAX_WARM = 16;

const pool = new Set<WarmSandbox>();
/** Counts since the process started (tests and the bench read them). */
export const warmStats = { started: 0, reused: 0, discarded: 0 };
let sweeper: NodeJS.Timeout | null = null;

function sweep() {
  const now = Date.now();
  for (const sb of pool) {
    if (sb.dead || (!sb.busy && now - sb.lastUsed > IDLE_MS)) {
      sb.close();
      pool.delete(sb);
    }
  }
  if (pool.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

/** Which file each policy path is now (device and inode), so a replaced folder is a new policy. */
function identity(paths: readonly string[]): string {
  return paths
    .map((p) => {
      try {
        const st = lstatSync(p);
        return `${st.dev}:${st.ino}`;
      } catch {
        return "-";
      }
    })
    .join(",");
}

export interface WarmLaunch {
  argv: string[];
  env: Record<string, string>;
  /** Call once the process has exited. */
  release(): void;
}

/** The command set up to run in a warm sandbox, or null when none can be had (the caller starts one of its own). */
export async function warmLaunch(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string>,
  plan: SandboxPlan,
  allowHosts: readonly string[],
): Promise<WarmLaunch | null> {
  if (warmUnsupported()) return null;
  const key = JSON.stringify([
    plan.writable,
    plan.hidden,
    plan.readable ?? [],
    [...plan.hosts].sort(),
    (plan.forwards ?? []).map((f) => JSON.stringify(f)).sort(),
    allowHosts,
    identity([...plan.writable, ...plan.hidden, ...(plan.readable ?? [])]),
  ]);
  let sb = [...pool].find((s) => s.key === key && !s.busy && !s.dead);
  if (!sb) {
    if ([...pool].filter((s) => !s.dead).length >= MAX_WARM) sweep();
    if ([...pool].filter((s) => !s.dead).length >= MAX_WARM) return null;
    sb = new WarmSandbox(key, plan, allowHosts);
    sb.busy = true;
    pool.add(sb);
    try {
      await sb.start();
    } catch {
      pool.delete(sb);
      return null;
    }
    warmStats.started++;
    sweeper ??= setInterval(sweep, 10_000).unref();
  } else warmStats.reused++;
  sb.busy = true;
  const warm = sb;
  const { argv: wrapped, env: runEnv } = warm.command(argv, cwd, env);
  let released = false;
  return {
    argv: wrapped,
    env: runEnv,
    release() {
      if (released) return;
      released = true;
      // Put back to what it started with before anyone else gets it; one that cannot be is gone.
      if (!warm.recycle()) {
        pool.delete(warm);
        warmStats.discarded++;
      }
      warm.busy = false;
    },
  };
}

/** Closes every warm sandbox (tests; a server shutting down closes them with its own exit). */
export function closeWarmSandboxes(): void {
  for (const sb of pool) sb.close();
  pool.clear();
}
