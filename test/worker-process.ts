// Real worker processes for crash, race and lease tests.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseTarget } from "../server/db/database-target";
import { inheritedEnv } from "../server/env";

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `detached`: the worker leads a process group of its own, so a test can kill -9 the whole group. */
export function spawnWorker(
  target: DatabaseTarget,
  env: Record<string, string> = {},
  options: { detached?: boolean } = {},
): WorkerProcess {
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", join(process.cwd(), "scripts/worker.ts")], {
    cwd: process.cwd(),
    detached: options.detached ?? false,
    env: {
      ...inheritedEnv(["PATH", "HOME", "RALPH_PG_ADMIN_URL"]),
      NODE_ENV: "test",
      // Workspaces and key files go to a scratch folder, not the checkout's ./data.
      RALPH_DATA_DIR: mkdtempSync(join(tmpdir(), "ralph-worker-")),
      DATABASE_URL: target.url,
      RALPH_LEASE_MS: "2000",
      RALPH_HEARTBEAT_MS: "200",
      RALPH_WORKER_CONCURRENCY: "60",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function stopWorker(worker: WorkerProcess, signal: NodeJS.Signals = "SIGTERM") {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  worker.child.kill(signal);
  await worker.exited;
}

/** Agent calls recorded by test/fixtures/counting-agent.mjs: "loop iteration attempt pid". */
export function readCalls(file: string) {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [loopId, iteration, attempt, pid] = line.split(" ");
      return { loopId: loopId!, iteration: Number(iteration), attempt: Number(attempt), pid: Number(pid) };
    });
}

/**
 * Unsandboxed (an admin's choice, allowed to the in-process operator these
 * tests act as): it runs from the app folder and writes a count file shared
 * by all loops, neither of which a sandboxed agent can reach, and the race
 * test tells calls apart by host pids.
 */
export const countingAgent = (countFile: string, sleepMs: number) => ({
  kind: "command" as const,
  preset: "generic" as const,
  argv: [process.execPath, join(process.cwd(), "test/fixtures/counting-agent.mjs")],
  env: { COUNT_FILE: countFile, SLEEP_MS: String(sleepMs) },
  timeoutSeconds: 60,
  killGraceMs: 500,
  sandbox: "off" as const,
});

/**
 * SIGSTOPs a worker, but not while it holds SQLite's write lock: a process
 * frozen inside a write transaction blocks every other writer on that file
 * for as long as it stays frozen, which is SQLite's design and not what the
 * lease tests are about. If a probe cannot take the write lock, the worker is
 * let go for a moment and frozen again.
 */
export async function freezeOutsideWriteLock(worker: WorkerProcess, target: DatabaseTarget) {
  worker.child.kill("SIGSTOP");
  if (target.kind !== "sqlite") return;
  const { default: Sqlite } = await import("better-sqlite3");
  const probe = new Sqlite(target.file, { timeout: 1_000 });
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        probe.exec("BEGIN IMMEDIATE; ROLLBACK;");
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
        worker.child.kill("SIGCONT");
        await new Promise((r) => setTimeout(r, 25));
        worker.child.kill("SIGSTOP");
      }
    }
    throw new Error("the worker kept SQLite's write lock through 50 freezes");
  } finally {
    probe.close();
  }
}
