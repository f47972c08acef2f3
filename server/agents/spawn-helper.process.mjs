// The spawn helper: a small Node process the server starts once (lazily, see
// spawn-helper.ts) and asks to start its child processes, because fork() of a
// process costs in proportion to its memory: from the server (hundreds of MB)
// one spawn is tens of ms of CPU, from this process a few.
//
// It does as little as it can: spawn what it is told exactly as told (file,
// args, cwd, env, stdin, detached, a lifeline pipe), stream stdout and stderr
// back, report exit and close. Timeouts, caps, signals and parsing stay in the
// server, which signals process groups itself.
//
// No orphans: a run's lifeline (fd 3 of the watcher in its group, see
// process-group.ts) is held here, so the group dies when this process dies,
// even by SIGKILL. When the server dies its IPC channel closes and this
// process kills every group it started and exits. Termination signals meant for
// the server's process group are ignored: the server decides when runs end.
//
// Spend outlives the server (issue 32): for a run the server marks as
// spoolable (the loop's agent call, `spool.file` under the data folder), the
// last SPOOL_TAIL bytes of stdout are kept here, while it runs and after it
// closed, until the server says its attempt was committed (`unspool`). When
// the server dies, those tails are written to their spool files before this
// process exits, and the loop's next owner counts the spend they report
// (server/jobs/spool-recovery.ts). Nothing is written while the server lives.
//
// Plain JavaScript with no imports beyond Node's own: it runs as is, outside
// any bundle, and starts in a few tens of ms.
import { spawn } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Bytes of output sent but not yet written to the channel, per run, before its pipes are paused. */
const HIGH_WATER = 256 * 1024;

/** Bytes of stdout kept per spoolable run (its last ones: where an agent prints its final spend). */
const SPOOL_TAIL = 64 * 1024;
/** Closed runs whose attempt the server has not confirmed yet: beyond these, the oldest are forgotten. */
const MAX_CLOSED = 512;
const MAX_CLOSED_BYTES = 32 * 1024 * 1024;

/** @type {Map<number, { child: import("node:child_process").ChildProcess; detached: boolean; unsent: number; paused: boolean; spool?: Spool }>} */
const runs = new Map();

/**
 * @typedef {{ file: string; meta: unknown; chunks: Buffer[]; bytes: number; total: number; closed: boolean }} Spool
 * @type {Spool[]} closed spoolable runs, oldest first
 */
let closedSpools = [];
let closedBytes = 0;

/** @param {Spool} spool @param {Buffer} chunk */
function keepTail(spool, chunk) {
  spool.chunks.push(chunk);
  spool.bytes += chunk.length;
  spool.total += chunk.length;
  if (spool.bytes > 2 * SPOOL_TAIL) {
    const all = Buffer.concat(spool.chunks);
    spool.chunks = [all.subarray(all.length - SPOOL_TAIL)];
    spool.bytes = SPOOL_TAIL;
  }
}

/** @param {Spool} spool */
function tailOf(spool) {
  const all = Buffer.concat(spool.chunks);
  return all.length > SPOOL_TAIL ? all.subarray(all.length - SPOOL_TAIL) : all;
}

/** @param {Spool} spool */
function closeSpool(spool) {
  spool.closed = true;
  spool.chunks = [tailOf(spool)];
  spool.bytes = spool.chunks[0].length;
  closedSpools.push(spool);
  closedBytes += spool.bytes;
  while (closedSpools.length > MAX_CLOSED || closedBytes > MAX_CLOSED_BYTES) closedBytes -= closedSpools.shift().bytes;
}

/** The server is gone: every tail it did not confirm goes to its spool file (one file per attempt, all its calls). */
function writeSpools() {
  /** @type {Map<string, Spool[]>} */
  const byFile = new Map();
  const live = [...runs.values()].map((r) => r.spool).filter(Boolean);
  for (const spool of [...closedSpools, ...live]) byFile.set(spool.file, [...(byFile.get(spool.file) ?? []), spool]);
  for (const [file, spools] of byFile) {
    try {
      const body = {
        v: 1,
        writtenAt: Date.now(),
        runs: spools.map((s) => ({
          meta: s.meta,
          live: !s.closed,
          cut: s.total > SPOOL_TAIL,
          tail: tailOf(s).toString("utf8"),
        })),
      };
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      // Whole or not at all: a reader never sees half a file.
      writeFileSync(`${file}.tmp`, JSON.stringify(body), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch {
      // best effort: the data folder may be gone or full
    }
  }
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => undefined);

/** @param {Record<string, unknown>} message */
function send(message, bytes = 0, run) {
  if (!process.connected) return;
  if (!run || bytes === 0) {
    process.send(message);
    return;
  }
  run.unsent += bytes;
  process.send(message, undefined, undefined, () => {
    run.unsent -= bytes;
    if (run.paused && run.unsent < HIGH_WATER / 2) {
      run.paused = false;
      run.child.stdout?.resume();
      run.child.stderr?.resume();
    }
  });
  // The server reads slower than the agent writes: let the pipe fill and the agent block, as a direct child would.
  if (!run.paused && run.unsent > HIGH_WATER) {
    run.paused = true;
    run.child.stdout?.pause();
    run.child.stderr?.pause();
  }
}

function start(msg) {
  let child;
  try {
    child = spawn(msg.file, msg.args, {
      cwd: msg.cwd,
      env: msg.env,
      detached: msg.detached,
      shell: false,
      stdio: [msg.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe", ...(msg.lifeline ? ["pipe"] : [])],
    });
  } catch (error) {
    send({ t: "error", id: msg.id, message: error instanceof Error ? error.message : String(error) });
    return;
  }
  const id = msg.id;
  if (child.pid === undefined) {
    child.once("error", (error) => send({ t: "error", id, message: error.message }));
    return;
  }
  const run = { child, detached: msg.detached, unsent: 0, paused: false };
  if (msg.spool)
    run.spool = { file: msg.spool.file, meta: msg.spool.meta, chunks: [], bytes: 0, total: 0, closed: false };
  runs.set(id, run);
  child.stdio[3]?.on("error", () => undefined);
  send({ t: "spawned", id, pid: child.pid });
  child.stdout.on("data", (chunk) => {
    if (run.spool) keepTail(run.spool, chunk);
    send({ t: "out", id, chunk }, chunk.length, run);
  });
  child.stderr.on("data", (chunk) => send({ t: "err", id, chunk }, chunk.length, run));
  if (child.stdin) {
    child.stdin.on("error", () => undefined); // EPIPE when the child never reads its input
    child.stdin.end(msg.stdin);
  }
  child.once("exit", (code, signal) => {
    // What the agent left in its group dies with it (the server would ask the same on this exit): done
    // here, `close` (which waits for this pipe too) need not wait for a round trip to the server.
    child.stdio[3]?.destroy();
    send({ t: "exit", id, code, signal });
  });
  child.once("close", () => {
    if (runs.get(id) !== run) return;
    runs.delete(id);
    if (run.spool) closeSpool(run.spool);
    send({ t: "close", id });
  });
}

process.on("message", (msg) => {
  if (msg.t === "spawn") return start(msg);
  if (msg.t === "unspool") {
    // The server committed that attempt: its tails are no longer anyone's to recover.
    closedSpools = closedSpools.filter((s) => s.file !== msg.file);
    closedBytes = closedSpools.reduce((n, s) => n + s.bytes, 0);
    return;
  }
  const run = runs.get(msg.id);
  if (!run) return;
  if (msg.t === "release") {
    // The watcher reads end-of-file and kills what is left of the group.
    run.child.stdio[3]?.destroy();
  } else if (msg.t === "abandon") {
    // A descendant that left the group holds the pipes open; the server stopped waiting for it.
    runs.delete(msg.id);
    if (run.spool) closeSpool(run.spool);
    run.child.stdout?.destroy();
    run.child.stderr?.destroy();
    run.child.stdio[3]?.destroy();
  }
});

// The server is gone (exited or killed): nothing it started may outlive it.
process.on("disconnect", () => {
  for (const run of runs.values()) {
    try {
      if (run.detached) process.kill(-run.child.pid, "SIGKILL");
      else run.child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
  // What the agents printed that the server never stored: for the loop's next owner.
  writeSpools();
  process.exit(0);
});
