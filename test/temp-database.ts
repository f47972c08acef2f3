// Scratch databases for tests and tooling: a fresh SQLite file or a fresh
// PostgreSQL database, removed again by drop().
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { DatabaseKind, DatabaseTarget } from "../server/db/database-target";

export interface TempDatabase {
  target: DatabaseTarget;
  drop(): Promise<void>;
}

export async function createTempDatabase(kind: DatabaseKind, pgAdminUrl: string, label = "tmp"): Promise<TempDatabase> {
  const suffix = `${label}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`.replace(/[^a-z0-9_]/gi, "_");
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "ralph-"));
    const file = join(dir, `${suffix}.db`);
    return {
      target: { kind: "sqlite", url: `file:${file}`, file },
      async drop() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `ralph_${suffix}`.toLowerCase();
  await adminQuery(pgAdminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: "postgresql", url: url.toString() },
    async drop() {
      await withAdmin(pgAdminUrl, async (client) => {
        // A closed pool resolves before its sockets have closed; terminating those (FORCE) makes
        // their clients report errors. Give them a moment, then force whatever was left open.
        for (let i = 0; i < 40; i++) {
          const { rows } = await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1",
            [name],
          );
          if (rows[0]!.n === 0) break;
          await new Promise((r) => setTimeout(r, 25));
        }
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
    },
  };
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function adminQuery(adminUrl: string, sql: string) {
  await withAdmin(adminUrl, (client) => client.query(sql));
}
