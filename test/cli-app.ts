// A running app for CLI tests: a migrated SQLite database of its own, the real
// job runtime (real engine, real agent adapters through createLoopPorts) in
// this process, and the tRPC endpoint on a real HTTP socket through the same
// handler as the Next route. The CLI runs as a child process: the real bin.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../server/db/client";
import { notifyEventsWritten } from "../server/events/event-wakeups";
import { LocalDispatcher } from "../server/jobs/local-dispatcher";
import { DEFAULT_SETTINGS, type JobRuntime } from "../server/jobs/runtime-deps";
import { systemDeps } from "../server/jobs/system-deps";
import type { LoopServices } from "../server/loops/loop-services";
import { createLoopPorts } from "../server/loops/ports-factory";
import { startAppHttpServer, type AppHttpServer } from "./http-app-server";

export interface CliApp {
  server: AppHttpServer;
  services: LoopServices;
  dispatcher: LocalDispatcher;
  /** A HOME of its own, so config files never touch the developer's. */
  home: string;
  stop(): Promise<void>;
}

export async function startCliApp(db: Database): Promise<CliApp> {
  const dispatcher = new LocalDispatcher();
  const jobs: JobRuntime = {
    db,
    ports: createLoopPorts,
    dispatcher,
    engine: systemDeps,
    settings: { ...DEFAULT_SETTINGS, heartbeatMs: 100 },
    instanceId: `cli-test-${process.pid}`,
    onEventsWritten: () => void notifyEventsWritten(db).catch(() => undefined),
  };
  dispatcher.attach(jobs);
  const services: LoopServices = { db, dispatcher, engine: systemDeps };
  const server = await startAppHttpServer(services);
  const home = mkdtempSync(join(tmpdir(), "ralph-cli-home-"));
  return {
    server,
    services,
    dispatcher,
    home,
    async stop() {
      await dispatcher.stop();
      await server.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

const BIN = join(process.cwd(), "cli/ralph.mjs");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `ralph <args>` to its end. */
export function ralph(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: options.cwd ?? process.cwd(),
        env: { ...cleanEnv(), ...options.env } as NodeJS.ProcessEnv,
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 10 * 1024 * 1024,
      },
      (error: (Error & { code?: unknown }) | null, stdout: string, stderr: string) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Starts `ralph <args>` and hands back the process (for following, signals). */
export function spawnRalph(args: string[], env: Record<string, string | undefined>, cwd = process.cwd()) {
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...cleanEnv(), ...env } as NodeJS.ProcessEnv,
    stdio: "pipe",
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  // Made at spawn so a caller that awaits it late still sees an exit that already happened.
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return Object.assign(child, { output: () => out, exited });
}

/** The test process's environment without anything that would point the CLI (or `ralph run`'s database) elsewhere. */
function cleanEnv(): NodeJS.ProcessEnv {
  const {
    RALPH_URL: _u,
    RALPH_TOKEN: _t,
    RALPH_CONFIG: _c,
    XDG_CONFIG_HOME: _x,
    DATABASE_URL: _d,
    RALPH_DATA_DIR: _r,
    ...rest
  } = process.env;
  return rest;
}
