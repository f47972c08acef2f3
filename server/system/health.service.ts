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
const FIRST_SANDBOX_CHECK_MS = DB_CHECK_MS;
let lastSandbox: SandboxHealth | undefined;

class CheckTimeout extends Error {}

/** One database check at a time per database: reports during an outage share it instead of queueing more. */
const dbChecks = new WeakMap<Database, ReturnType<typeof checkDatabase>>();
function databaseCheck(db: Database, root: string) {
  let check = dbChecks.get(db);
  if (!check) {
    check = checkDatabase(db, root).finally(() => dbChecks.delete(db));
    check.catch(() => undefined);
    dbChecks.set(db, check);
  }
  return check;
}

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

/** At start: the slow probes (a sandbox process, a write to the data folder) run before the first report. */
export function warmHealthChecks(dataDir = getEnv().RALPH_DATA_DIR) {
  void sandboxHealth().then(
    (fresh) => (lastSandbox ??= fresh),
    () => undefined,
  );
  void storageHealth(dataDir).catch(() => undefined);
}

export async function getHealth(db: Database, root: string, dataDir = getEnv().RALPH_DATA_DIR): Promise<HealthReport> {
  // Cached per process, but re-probed (a process spawn) while unavailable: a
  // slow probe must not hold the report past its second, so the last answer stands in.
  // The three checks run side by side (each with its own deadline), so the report is as slow as the slowest.
  // The sandbox probe spawns a process (seconds on a loaded machine): its first answer is waited for only
  // as long as the rest, then it is "not answered yet" (which matters only when the sandbox is on).
  const sandboxCheck = withDeadline(sandboxHealth(), lastSandbox ? SANDBOX_CHECK_MS : FIRST_SANDBOX_CHECK_MS).then(
    (fresh) => (lastSandbox = fresh),
    () =>
      lastSandbox ?? {
        mode: getEnv().RALPH_AGENT_SANDBOX,
        available: false,
        backend: null,
        detail: "the sandbox check has not answered yet",
      },
  );
  const storageCheck = storageHealth(dataDir);
  const dbCheck = withDeadline(databaseCheck(db, root), DB_CHECK_MS);
  dbCheck.catch(() => undefined);
  const [sandbox, storage] = await Promise.all([sandboxCheck, storageCheck]);
  // Sandbox on but not available: command agents cannot run (they never run unsandboxed by accident).
  const sandboxOk = sandbox.mode === "off" || sandbox.available;
  const base = { db: db.kind, version: APP_VERSION, sandbox, storage };
  try {
    const { migrations } = await dbCheck;
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
