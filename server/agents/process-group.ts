/**
 * Runs one argv as its own process group (never through a shell) and
 * collects capped output. The group matters: CLI agents start helpers
 * (shells, test runners, language servers), and killing only the direct child
 * would leave those running after a timeout or an operator kill.
 *
 * No orphans: the group starts with a tiny watcher (a subshell of /bin/sh)
 * that holds one end of a pipe whose other end only this process holds. When
 * this process dies, even by SIGKILL, the kernel closes that end, the
 * watcher's read returns and it kills the whole group. The same happens when
 * the agent exits: whatever it left running in its group dies with it.
 *
 * Hot path for agents that answer at once: no polling and no timers beyond
 * the ones a limit needs; everything is driven by child-process events.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { join, resolve as resolvePath } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { describeGroup, hasProc, liveProcesses, type ProcessGroupRecord } from "./process-identity";

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
    durationMs: 0,
  };
  if (spec.signal?.aborted) return Promise.resolve({ ...outcome, aborted: true });

  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      // The watcher's shell would report a missing program as exit 127; say it as a direct spawn would.
      const missing = missingProgram(spec.argv[0], spec.cwd, spec.env.PATH);
      if (missing) throw new Error(missing);
      child = spawn("/bin/sh", ["-c", WATCHER, "ralph-agent", ...spec.argv], {
        cwd: spec.cwd,
        env: spec.env as NodeJS.ProcessEnv, // exactly these variables, nothing inherited
        detached: true, // own process group, so the whole tree can be signalled
        shell: false,
        stdio: [spec.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe", "pipe"],
      });
    } catch (error) {
      resolve({ ...outcome, spawnError: (error as Error).message, durationMs: performance.now() - started });
      return;
    }
    const pid = child.pid;
    outcome.pid = pid;
    // Our end of the watcher's pipe: closing it (or dying) kills the group.
    const lifeline = child.stdio[3];
    lifeline?.on("error", () => undefined);
    const releaseGroup = () => lifeline?.destroy();
    if (pid !== undefined && spec.onStart) {
      try {
        spec.onStart(describeGroup(pid, spec.marker ?? null));
      } catch {
        // recording the group is best effort; the watcher still guards it
      }
    }

    const kept: Buffer[] = [];
    let keptBytes = 0;
    let stderr = Buffer.alloc(0);
    const decoder = new StringDecoder("utf8");
    let pending = "";
    let settled = false;
    let terminating = false;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let closeFallback: NodeJS.Timeout | undefined;

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
      signalGroup(pid, "SIGTERM");
      graceTimer = setTimeout(() => {
        if (groupAlive(pid)) {
          outcome.killedWith = "SIGKILL";
          signalGroup(pid, "SIGKILL");
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
      releaseGroup();
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

    child.stdout!.on("data", (chunk: Buffer) => {
      outcome.stdoutBytes += chunk.length;
      if (keptBytes < spec.maxOutputBytes) {
        const room = spec.maxOutputBytes - keptBytes;
        const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
        kept.push(part);
        keptBytes += part.length;
      }
      if (outcome.stdoutBytes > spec.maxOutputBytes) outcome.truncated = true;
      emitLines(decoder.write(chunk));
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    if (child.stdin) {
      child.stdin.on("error", () => undefined); // EPIPE when the child never reads its prompt
      child.stdin.end(spec.stdin);
    }

    child.once("error", (error) => {
      if (pid === undefined) {
        outcome.spawnError = error.message;
        finish();
      }
    });
    child.once("exit", (code, signal) => {
      outcome.exitCode = code;
      outcome.exitSignal = signal;
      // Whatever the agent left running in its group dies with it: every
      // iteration is a fresh agent, and stray children would hold our pipes.
      // Closing the lifeline makes the watcher SIGKILL the rest of the group.
      releaseGroup();
      // A descendant that escaped the group (setsid) could keep the pipes
      // open forever; stop waiting for it once the group is surely gone.
      closeFallback = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, spec.killGraceMs + 1000);
    });
    child.once("close", finish);

    if (spec.timeoutMs > 0) {
      timeoutTimer = setTimeout(() => {
        outcome.timedOut = true;
        terminate();
      }, spec.timeoutMs);
    }
    spec.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
