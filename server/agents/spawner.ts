/**
 * How the server starts a child process: directly, or through the spawn
 * helper (spawn-helper.ts), a small long-lived process whose fork() costs a
 * few ms where the server's own costs tens (fork copies the page tables of
 * the whole process). Both give the same events in the same order, so the
 * process rules (process-group.ts) and git (git/git-cli.ts) do not care which.
 * RALPH_SPAWN_HELPER=off spawns directly.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { getEnv } from "../env";
import { helperSpawn } from "./spawn-helper";
import type { SpawnEvents, SpawnHandle, SpawnRequest, SpawnVia, SpoolTarget } from "./spawn-events";

export type { SpawnEvents, SpawnHandle, SpawnRequest, SpawnVia, SpoolTarget };

export function directSpawn(req: SpawnRequest, events: SpawnEvents): SpawnHandle {
  let child: ChildProcess;
  try {
    child = spawn(req.file, req.args, {
      cwd: req.cwd,
      env: req.env as NodeJS.ProcessEnv,
      detached: req.detached,
      shell: false,
      stdio: [req.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe", ...(req.lifeline ? ["pipe" as const] : [])],
    });
  } catch (error) {
    events.failed((error as Error).message);
    return { release: () => undefined, abandon: () => undefined };
  }
  const lifeline = child.stdio[3];
  lifeline?.on("error", () => undefined);
  if (child.pid === undefined) {
    child.once("error", (error) => events.failed(error.message));
    return { release: () => undefined, abandon: () => undefined };
  }
  events.spawned(child.pid);
  child.stdout!.on("data", events.stdout);
  child.stderr!.on("data", events.stderr);
  if (child.stdin) {
    child.stdin.on("error", () => undefined); // EPIPE when the child never reads its input
    child.stdin.end(req.stdin);
  }
  let abandoned = false;
  child.once("exit", (code, signal) => {
    lifeline?.destroy();
    events.exit(code, signal);
  });
  child.once("close", () => {
    if (!abandoned) events.close();
  });
  return {
    release: () => lifeline?.destroy(),
    abandon: () => {
      abandoned = true;
      child.stdout?.destroy();
      child.stderr?.destroy();
      lifeline?.destroy();
    },
  };
}

let defaultVia: SpawnVia | undefined;

export function spawnChild(req: SpawnRequest, events: SpawnEvents, via?: SpawnVia): SpawnHandle {
  defaultVia ??= getEnv().RALPH_SPAWN_HELPER === "on" ? "helper" : "direct";
  if ((via ?? defaultVia) === "helper") {
    const handle = helperSpawn(req, events);
    if (handle) return handle;
  }
  return directSpawn(req, events);
}

export interface Collected {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Could not start, the helper died, or stdout passed maxBuffer (the process was then killed). */
  error: string | null;
}

/** Runs a short command (git) to completion and collects its output, like execFile. */
export function collectOutput(
  file: string,
  args: readonly string[],
  opts: { cwd: string; env: Record<string, string>; maxBuffer: number; via?: SpawnVia; stdin?: string },
): Promise<Collected> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let pid: number | undefined;
    let result: Omit<Collected, "stdout" | "stderr"> = { code: null, signal: null, error: null };
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve({ ...result, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
    };
    spawnChild(
      { file, args, cwd: opts.cwd, env: opts.env, stdin: opts.stdin, detached: false, lifeline: false },
      {
        spawned: (p) => (pid = p),
        stdout: (chunk) => {
          outBytes += chunk.length;
          if (outBytes <= opts.maxBuffer) out.push(chunk);
          else if (result.error === null) {
            result.error = `stdout passed maxBuffer (${opts.maxBuffer} bytes)`;
            try {
              if (pid !== undefined) process.kill(pid, "SIGKILL");
            } catch {
              // already gone
            }
          }
        },
        // Kept whole up to the same bound: git's stderr is a few lines, never a flood worth streaming.
        stderr: (chunk) => {
          errBytes += chunk.length;
          if (errBytes <= opts.maxBuffer) err.push(chunk);
        },
        exit: (code, signal) => (result = { ...result, code, signal }),
        close: finish,
        failed: (message) => {
          result = { ...result, error: message };
          finish();
        },
      },
      opts.via,
    );
  });
}
