import { sandboxAvailability } from "../agents/sandbox/sandbox-runtime";
import { sandboxHosts } from "../agents/sandbox/loopback-hosts";
import type { Database } from "../db/client";
import { getDatabase } from "../db/database";
import { checkDatabase } from "../db/db-health";
import { isTransientStorageError } from "../db/storage-errors";
import { getEnv } from "../env";
import { storageHealth, type StorageHealth } from "./storage-health";
import { APP_VERSION } from "../version";

export interface SandboxHealth {
  /** RALPH_AGENT_SANDBOX */
  mode: "on" | "off";
  /** Whether agent processes can run sandboxed here (checked by running one). */
  available: boolean;
  backend: "bubblewrap" | "sandbox-exec" | null;
  /** Why not, when it is not available. */
  detail: string | null;
}

export interface HealthReport {
  status: "ok" | "degraded" | "down";
  db: "sqlite" | "postgresql";
  migrations: string;
  version: string;
  sandbox: SandboxHealth;
  /** The data folder takes writes (not read-only, not full). */
  storage: StorageHealth;
  error?: string;
}

/** The whole report must come back within a second (a probe's deadline), even while PostgreSQL restarts. */
export const DB_CHECK_MS = 600;
const SANDBOX_CHECK_MS = 250;
let lastSandbox: SandboxHealth | undefined;

class CheckTimeout extends Error {}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export async function sandboxHealth(): Promise<SandboxHealth> {
  const env = getEnv();
  // The admin's entries as the sandbox applies them (one it cannot use must not stop it from starting).
  const check = await sandboxAvailability((await sandboxHosts(env.RALPH_AGENT_ALLOW_HOSTS, "admin")).allowed);
  return { mode: env.RALPH_AGENT_SANDBOX, ...check };
}

export async function getHealth(db: Database, root: string, dataDir = getEnv().RALPH_DATA_DIR): Promise<HealthReport> {
  // Cached per process, but re-probed (a process spawn) while unavailable: a
  // slow probe must not hold the report past its second, so the last answer stands in.
  // The first report waits for the real answer (there is nothing to stand in).
  const sandbox = lastSandbox
    ? await withDeadline(sandboxHealth(), SANDBOX_CHECK_MS).then(
        (fresh) => (lastSandbox = fresh),
        () => lastSandbox!,
      )
    : (lastSandbox = await sandboxHealth());
  const storage = storageHealth(dataDir);
  // Sandbox on but not available: command agents cannot run (they never run unsandboxed by accident).
  const sandboxOk = sandbox.mode === "off" || sandbox.available;
  const base = { db: db.kind, version: APP_VERSION, sandbox, storage };
  try {
    const { migrations } = await withDeadline(checkDatabase(db, root), DB_CHECK_MS);
    const ok = migrations === "up-to-date" && sandboxOk && storage.ok;
    return {
      status: ok ? "ok" : "degraded",
      migrations,
      ...base,
      ...(storage.ok ? {} : { error: storage.reason ?? "data folder not writable" }),
    };
  } catch (error) {
    // A restart or a full pool passes (loops wait it out): degraded, answered
    // at once. Anything else means this process cannot serve.
    const passing = error instanceof CheckTimeout || isTransientStorageError(error);
    return {
      status: passing ? "degraded" : "down",
      migrations: "unknown",
      ...base,
      error: passing ? "database not answering (restarting or busy); loops wait for it" : "database unreachable",
    };
  }
}

/** This process's health, for the load balancer's probe (GET /api/health). */
export const getProcessHealth = () => getHealth(getDatabase(), process.cwd());
