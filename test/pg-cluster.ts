// A throwaway PostgreSQL cluster of a test's own (initdb in a temp folder, a
// free port, run as the `postgres` user), so a chaos test can stop and restart
// the server without touching the shared one on 5432.
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PgCluster {
  /** postgresql://postgres@127.0.0.1:<port>/postgres */
  adminUrl: string;
  /** Stops the server (fast: clients are told; immediate: no shutdown checkpoint, crash recovery on start) and starts it again after `downMs`. */
  restart(mode: "fast" | "immediate", downMs: number): Promise<void>;
  /** Stops the server; resolves once it is down. */
  stop(mode: "fast" | "immediate"): Promise<void>;
  /** Starts it again; resolves once it accepts connections. */
  start(): Promise<void>;
  destroy(): void;
}

function pgBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  const bin = version ? join(root, version, "bin") : null;
  return bin && existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl")) ? bin : null;
}

const postgresUid = () => {
  try {
    return Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  } catch {
    return null;
  }
};

/** Why a private cluster cannot be made here, or null when it can. */
export function pgClusterUnavailable(): string | null {
  if (!pgBin()) return "no initdb/pg_ctl under /usr/lib/postgresql";
  if (process.getuid?.() !== 0) return "needs root to run initdb as the postgres user";
  if (postgresUid() === null) return "no postgres user";
  return null;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export async function startPgCluster(): Promise<PgCluster> {
  const bin = pgBin()!;
  const uid = postgresUid()!;
  const dir = mkdtempSync(join(tmpdir(), "ralph-pgchaos-"));
  chmodSync(dir, 0o755);
  chownSync(dir, uid, uid);
  const data = join(dir, "data");
  const port = await freePort();
  const asPostgres = (tool: string, args: string[]) =>
    execFileSync("runuser", ["-u", "postgres", "--", join(bin, tool), ...args], { stdio: "pipe", timeout: 120_000 });
  asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const startArgs = ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "start"];
  asPostgres("pg_ctl", startArgs);
  // Restarts run pg_ctl without blocking this process: a test timing its own
  // requests (health within a second) must not have its event loop frozen by the tool.
  const asPostgresAsync = async (tool: string, args: string[]) => {
    await promisify(execFile)("runuser", ["-u", "postgres", "--", join(bin, tool), ...args], { timeout: 120_000 });
  };
  const stop = (mode: "fast" | "immediate") => asPostgresAsync("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"]);
  const start = () => asPostgresAsync("pg_ctl", startArgs);
  return {
    adminUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async restart(mode, downMs) {
      await stop(mode);
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    destroy() {
      try {
        asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
