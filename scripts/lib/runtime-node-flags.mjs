// Node flags and environment for the processes that run loops (the app server,
// scripts/start.mjs, and the worker, scripts/worker-start.mjs). Measured with
// bench/memory.ts (100 live loops, see docs/performance.md).
//
// A runtime's live heap is small (about 50-60 MB with 100 live loops, 80 MB
// with 1,000), but it allocates fast, and on a machine with plenty of memory
// V8 lets the old generation grow to up to 4x the live size before collecting
// it: the same 100 loops peaked anywhere between 250 and 430 MB of RSS from
// one run to the next, most of it garbage. A stated ceiling makes V8 pick a
// smaller growth factor (about 1.6x at 1 GB), which keeps the peak near the
// live size at the cost of somewhat more frequent major collections.
export const RUNTIME_HEAP_MB = 1024;

/** The flags to put before the script on a runtime process's command line. */
export const RUNTIME_NODE_FLAGS = [
  `--max-old-space-size=${RUNTIME_HEAP_MB}`,
  // Not --max-semi-space-size=4: it saves about 25 MB of young generation with 100 live loops,
  // but costs about 5% more CPU per iteration at full speed (bench/runtime-cpu.ts, SQLite).

  // V8's worker threads (concurrent marking, compilation): node starts 4 by default whatever
  // the core count. Each thread that allocates gets a glibc malloc arena of its own that keeps
  // what it once held (tens of MB after the start's compilations); 2 threads are plenty for a
  // 2-core machine and halve that.
  "--v8-pool-size=2",
];

/**
 * glibc malloc settings (ignored elsewhere): without them, about 90 MB of a runtime's RSS with
 * 100 live loops was malloc memory freed long ago but kept by per-thread arenas (V8's
 * compilation and GC scratch memory, driver buffers), because glibc returns memory to the system
 * only from the top of an arena, and it raises its mmap threshold after the first large free, so
 * later large blocks land in the arenas too. Two arenas, a fixed mmap threshold (64 KB blocks
 * and larger are mapped and unmapped on their own) and a low trim threshold give most of it back.
 * Values already in the environment win.
 */
export const RUNTIME_MALLOC_ENV = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "65536",
  MALLOC_TRIM_THRESHOLD_: "131072",
};

/** The environment for a runtime process: `env` with the malloc settings it does not already set. */
export function runtimeEnv(env = process.env) {
  return { ...RUNTIME_MALLOC_ENV, ...env };
}
