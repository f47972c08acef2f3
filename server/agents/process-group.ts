/**
 * Runs one argv as its own process group (never through a shell) and
 * collects capped output. The group matters: CLI agents start helpers
 * (shells, test runners, language servers), and killing only the direct child
 * would leave those running after a timeout or an operator kill.
 *
 * No orphans: the group starts with a tiny watcher (a subshell of /bin/sh)
 * that holds one end of a pipe whose other end only the spawning process
 * holds: the spawn helper (spawner.ts), or this process with the helper off.
 * When that process dies, even by SIGKILL, the kernel closes that end, the
 * watcher's read returns and it kills the whole group; the helper in turn
 * kills every group it started when this process dies. The same happens when
 * the agent exits: whatever it left running in its group dies with it.
 * Signals (timeout, abort) are sent to the group from here either way.
 *
 * Hot path for agents that answer at once: no polling and no timers beyond
 * the ones a limit needs; everything is driven by child-process events.
 */
import { accessSync, constants, statSync } from "node:fs";
import { join, resolve as resolvePath } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { describeGroup, hasProc, liveProcesses, type ProcessGroupRecord } from "./process-identity";
import { spawnChild, type SpawnHandle, type SpawnVia, type SpoolTarget } from "./spawner";

/**
 * `sh -c WATCHER name argv...`: fork the watcher (it ignores the SIGTERM the
 * group gets on a timeout, and dies by the SIGKILL it sends or that follows),
 * close the pipe in the main shell, then become the agent: the agent keeps the
 * group leader's pid, its stdin, and its own exit code or signal.
 */
const WATCHER =
  '( trap "" TERM; read -r _ <&3; kill -KILL 0 ) </dev/null >/dev/null 2>&1 & exec 3<&-; unset PWD; exec "$@"';

export interface ProcessSpec {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, then closed; undefined leaves stdin unattached. */
  stdin?: string;
  /** 0 = no limit. */
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL. */
  killGraceMs: number;
  /** Bytes of stdout kept; the rest is read and dropped so the child never blocks. */
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** Every complete stdout line, including those past the cap (parsers need the final result line). */
  onLine?(line: string): void;
  /** Called once the group exists, with what identifies it after a crash of this process. */
  onStart?(group: ProcessGroupRecord): void;
  /** `NAME=value` from `env` that marks every process of this run (see ProcessGroupRecord). */
  marker?: string;
  /** Through the spawn helper or directly; RALPH_SPAWN_HELPER decides when not given. */
  spawnVia?: SpawnVia;
  /** Where the spawn helper writes the tail of stdout if the server dies first (spend-spool.ts). */
  spool?: SpoolTarget;
}

export interface ProcessOutcome {
  pid: number | undefined;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stdout: string;
  stdoutBytes: number;
  truncated: boolean;
  stderrTail: string;
  timedOut: boolean;
  aborted: boolean;
  /** The strongest signal sent to the group, if any. */
  killedWith: "SIGTERM" | "SIGKILL" | null;
  spawnError: string | null;
  /** It started, then the spawn helper holding it died (its group was killed): the run is lost. */
  lost: string | null;
  durationMs: number;
}

const STDERR_TAIL_BYTES = 4096;

function signalGroup(pid: number | undefined, signal: NodeJS.Signals | 0): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: nobody left in the group
  }
}

/** Why `file` cannot be executed (as execvp would look it up), or null when it can. */
export function missingProgram(file: string | undefined, cwd: string, path: string | undefined): string | null {
  if (!file) return "empty command";
  const candidates = file.includes("/")
    ? [resolvePath(/*turbopackIgnore: true*/ cwd, file)]
    : (path ?? "/usr/local/bin:/usr/bin:/bin")
        .split(":")
        .map((dir) => join(/*turbopackIgnore: true*/ dir || ".", file));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return null;
    } catch {
      // not here; try the next PATH entry
    }
  }
  return `spawn ${file} ENOENT`;
}

/**
 * True while any process of the group (the child or something it started) is
 * alive. kill(-pgid, 0) also succeeds for zombies nobody reaped (a container
 * whose init does not reap), so where /proc exists the members are looked up.
 */
export function groupAlive(pgid: number | undefined): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (!hasProc()) return true;
  return liveProcesses().some((p) => p.pgrp === pgid);
}

export function runProcess(spec: ProcessSpec): Promise<ProcessOutcome> {
  const started = performance.now();
  const outcome: ProcessOutcome = {
    pid: undefined,
    exitCode: null,
    exitSignal: null,
    stdout: "",
    stdoutBytes: 0,
    truncated: false,
    stderrTail: "",
    timedOut: false,
    aborted: false,
    killedWith: null,
    spawnError: null,
    lost: null,
    durationMs: 0,
  };
  if (spec.signal?.aborted) return Promise.resolve({ ...outcome, aborted: true });
  // The watcher's shell would report a missing program as exit 127; say it as a direct spawn would.
  const missing = missingProgram(spec.argv[0], spec.cwd, spec.env.PATH);
  if (missing) return Promise.resolve({ ...outcome, spawnError: missing, durationMs: performance.now() - started });

  return new Promise((resolve) => {
    let pid: number | undefined;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let stderr: Buffer = Buffer.alloc(0);
    const decoder = new StringDecoder("utf8");
    let pending = "";
    let settled = false;
    let terminating = false;
    // Asked for before the helper said the group exists: sent once it does.
    let deferredSignal: NodeJS.Signals | null = null;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let closeFallback: NodeJS.Timeout | undefined;

    const signal = (sig: NodeJS.Signals) => {
      if (pid === undefined) deferredSignal = sig;
      else signalGroup(pid, sig);
    };

    // A throwing line handler must not become an uncaught exception in a stream callback.
    const onLine = (line: string) => {
      try {
        spec.onLine!(line);
      } catch {
        // the caller's parser is at fault; the process output is still collected
      }
    };
    const emitLines = (text: string) => {
      if (!spec.onLine) return;
      pending += text;
      let start = 0;
      let newline = pending.indexOf("\n", start);
      while (newline !== -1) {
        const line =
          pending.charCodeAt(newline - 1) === 13 ? pending.slice(start, newline - 1) : pending.slice(start, newline);
        onLine(line);
        start = newline + 1;
        newline = pending.indexOf("\n", start);
      }
      pending = start === 0 ? pending : pending.slice(start);
      // One endless line must not grow memory without bound.
      if (pending.length > spec.maxOutputBytes) {
        onLine(pending);
        pending = "";
      }
    };

    const terminate = () => {
      if (terminating) return;
      terminating = true;
      outcome.killedWith = "SIGTERM";
      signal("SIGTERM");
      graceTimer = setTimeout(() => {
        if (pid === undefined || groupAlive(pid)) {
          outcome.killedWith = "SIGKILL";
          signal("SIGKILL");
        }
      }, spec.killGraceMs);
    };

    const onAbort = () => {
      outcome.aborted = true;
      terminate();
    };

    const finish = () => {
      if (settled) return;
      settled = true;
      handle.release();
      clearTimeout(timeoutTimer);
      clearTimeout(graceTimer);
      clearTimeout(closeFallback);
      spec.signal?.removeEventListener("abort", onAbort);
      const rest = decoder.end();
      if (rest) emitLines(rest);
      if (pending && spec.onLine) onLine(pending);
      outcome.stdout = Buffer.concat(kept, keptBytes).toString("utf8");
      outcome.stderrTail = stderr.toString("utf8");
      outcome.durationMs = performance.now() - started;
      resolve(outcome);
    };

    const handle: SpawnHandle = spawnChild(
      {
        file: "/bin/sh",
        args: ["-c", WATCHER, "ralph-agent", ...spec.argv],
        cwd: spec.cwd,
        env: spec.env, // exactly these variables, nothing inherited
        stdin: spec.stdin,
        detached: true, // own process group, so the whole tree can be signalled
        // Our end of the watcher's pipe: closing it (or dying) kills the group.
        lifeline: true,
        ...(spec.spool ? { spool: spec.spool } : {}),
      },
      {
        spawned(p) {
          pid = p;
          outcome.pid = p;
          if (spec.onStart) {
            try {
              spec.onStart(describeGroup(p, spec.marker ?? null));
            } catch {
              // recording the group is best effort; the watcher still guards it
            }
          }
          if (deferredSignal) signalGroup(p, deferredSignal);
        },
        stdout(chunk) {
          outcome.stdoutBytes += chunk.length;
          if (keptBytes < spec.maxOutputBytes) {
            const room = spec.maxOutputBytes - keptBytes;
            const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
            kept.push(part);
            keptBytes += part.length;
          }
          if (outcome.stdoutBytes > spec.maxOutputBytes) outcome.truncated = true;
          emitLines(decoder.write(chunk));
        },
        stderr(chunk) {
          stderr = stderr.length === 0 ? chunk : Buffer.concat([stderr, chunk]);
          if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
        },
        exit(code, sig) {
          outcome.exitCode = code;
          outcome.exitSignal = sig;
          // Whatever the agent left running in its group dies with it: every
          // iteration is a fresh agent, and stray children would hold our pipes.
          // Closing the lifeline makes the watcher SIGKILL the rest of the group.
          handle.release();
          // A descendant that escaped the group (setsid) could keep the pipes
          // open forever; stop waiting for it once the group is surely gone.
          closeFallback = setTimeout(() => {
            handle.abandon();
            finish();
          }, spec.killGraceMs + 1000);
        },
        close: () => finish(),
        failed(message) {
          if (pid === undefined) outcome.spawnError = message;
          else {
            // The helper holding it died: its lifeline closed, so the watcher is killing the group; make sure.
            outcome.lost = message;
            signalGroup(pid, "SIGKILL");
          }
          // Called synchronously by a direct spawn that failed, before `handle` is assigned.
          queueMicrotask(finish);
        },
      },
      spec.spawnVia,
    );

    if (spec.timeoutMs > 0) {
      timeoutTimer = setTimeout(() => {
        outcome.timedOut = true;
        terminate();
      }, spec.timeoutMs);
    }
    spec.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
