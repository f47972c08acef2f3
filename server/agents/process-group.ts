/**
 * Runs one argv as its own process group (never through a shell) and
 * collects capped output. The group matters: CLI agents start helpers
 * (shells, test runners, language servers), and killing only the direct child
 * would leave those running after a timeout or an operator kill.
 *
 * Hot path for agents that answer at once: no polling and no timers beyond
 * the ones a limit needs; everything is driven by child-process events.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";

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

/** True while any process of the group (the child or something it started) is alive. */
export const groupAlive = (pid: number | undefined) => signalGroup(pid, 0);

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
      const [file, ...args] = spec.argv;
      child = spawn(file ?? "", args, {
        cwd: spec.cwd,
        env: spec.env as NodeJS.ProcessEnv, // exactly these variables, nothing inherited
        detached: true, // own process group, so the whole tree can be signalled
        shell: false,
        stdio: [spec.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
    } catch (error) {
      resolve({ ...outcome, spawnError: (error as Error).message, durationMs: performance.now() - started });
      return;
    }
    const pid = child.pid;
    outcome.pid = pid;

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
        const line = pending.charCodeAt(newline - 1) === 13 ? pending.slice(start, newline - 1) : pending.slice(start, newline);
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
      if (groupAlive(pid)) terminate();
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
