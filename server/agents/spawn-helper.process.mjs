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
// Plain JavaScript with no imports beyond Node's own: it runs as is, outside
// any bundle, and starts in a few tens of ms.
import { spawn } from "node:child_process";

/** Bytes of output sent but not yet written to the channel, per run, before its pipes are paused. */
const HIGH_WATER = 256 * 1024;

/** @type {Map<number, { child: import("node:child_process").ChildProcess; detached: boolean; unsent: number; paused: boolean }>} */
const runs = new Map();

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
  runs.set(id, run);
  child.stdio[3]?.on("error", () => undefined);
  send({ t: "spawned", id, pid: child.pid });
  child.stdout.on("data", (chunk) => send({ t: "out", id, chunk }, chunk.length, run));
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
    send({ t: "close", id });
  });
}

process.on("message", (msg) => {
  if (msg.t === "spawn") return start(msg);
  const run = runs.get(msg.id);
  if (!run) return;
  if (msg.t === "release") {
    // The watcher reads end-of-file and kills what is left of the group.
    run.child.stdio[3]?.destroy();
  } else if (msg.t === "abandon") {
    // A descendant that left the group holds the pipes open; the server stopped waiting for it.
    runs.delete(msg.id);
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
  process.exit(0);
});
