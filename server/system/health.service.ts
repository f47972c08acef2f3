import type { Database } from "../db/client";
import { checkDatabase } from "../db/db-health";
import { APP_VERSION } from "../version";

export interface HealthReport {
  status: "ok" | "degraded" | "down";
  db: "sqlite" | "postgresql";
  migrations: string;
  version: string;
  error?: string;
}

export async function getHealth(db: Database, root: string): Promise<HealthReport> {
  try {
    const { migrations } = await checkDatabase(db, root);
    return { status: migrations === "up-to-date" ? "ok" : "degraded", db: db.kind, migrations, version: APP_VERSION };
  } catch {
    return { status: "down", db: db.kind, migrations: "unknown", version: APP_VERSION, error: "database unreachable" };
  }
}
