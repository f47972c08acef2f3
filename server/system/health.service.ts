import { sandboxAvailability } from "../agents/sandbox/sandbox-runtime";
import { sandboxHosts } from "../agents/sandbox/loopback-hosts";
import type { Database } from "../db/client";
import { getDatabase } from "../db/database";
import { checkDatabase } from "../db/db-health";
import { getEnv } from "../env";
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
  error?: string;
}

export async function sandboxHealth(): Promise<SandboxHealth> {
  const env = getEnv();
  // The admin's entries as the sandbox applies them (one it cannot use must not stop it from starting).
  const check = await sandboxAvailability((await sandboxHosts(env.RALPH_AGENT_ALLOW_HOSTS, "admin")).allowed);
  return { mode: env.RALPH_AGENT_SANDBOX, ...check };
}

export async function getHealth(db: Database, root: string): Promise<HealthReport> {
  const sandbox = await sandboxHealth();
  // Sandbox on but not available: command agents cannot run (they never run unsandboxed by accident).
  const sandboxOk = sandbox.mode === "off" || sandbox.available;
  try {
    const { migrations } = await checkDatabase(db, root);
    const ok = migrations === "up-to-date" && sandboxOk;
    return { status: ok ? "ok" : "degraded", db: db.kind, migrations, version: APP_VERSION, sandbox };
  } catch {
    return {
      status: "down",
      db: db.kind,
      migrations: "unknown",
      version: APP_VERSION,
      sandbox,
      error: "database unreachable",
    };
  }
}

/** This process's health, for the load balancer's probe (GET /api/health). */
export const getProcessHealth = () => getHealth(getDatabase(), process.cwd());
