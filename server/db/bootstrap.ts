// Makes the configured database ready to serve: it exists and is migrated.
import pg from "pg";
import type { DatabaseTarget } from "./database-target";
import { migrate } from "./migrations/migrator";

/** PostgreSQL: create the named database when the server lacks it. */
async function ensurePostgresDatabase(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ""));
  if (!name) return;
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
        if (error.code !== "42P04") throw error; // created meanwhile by another instance
      });
    }
  } finally {
    await client.end();
  }
}

export async function prepareDatabase(target: DatabaseTarget, root: string): Promise<string[]> {
  if (target.kind === "postgresql") await ensurePostgresDatabase(target.url);
  return migrate(target, root);
}
