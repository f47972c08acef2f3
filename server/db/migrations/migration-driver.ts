// The two raw drivers the migrator needs. They keep `_prisma_migrations`
// exactly as Prisma's own schema engine does, so `prisma migrate deploy` and
// `prisma migrate status` on a connected machine agree with what ran here.
import Database from "better-sqlite3";
import pg from "pg";
import type { DatabaseTarget } from "../database-target";

export interface AppliedMigration {
  name: string;
  checksum: string;
  finished: boolean;
  rolledBack: boolean;
}

export interface MigrationDriver {
  ensureTable(): Promise<void>;
  applied(): Promise<AppliedMigration[]>;
  /** Runs one migration and records it, atomically. */
  apply(id: string, name: string, checksum: string, sql: string): Promise<void>;
  /** Serialises concurrent migrators (several app instances starting at once). */
  withLock<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const SQLITE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

const PG_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

// The advisory lock key Prisma's schema engine uses for migrate deploy.
const PG_ADVISORY_LOCK = 72707369;

type Row = { migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown };
const toApplied = (r: Row): AppliedMigration => ({
  name: r.migration_name,
  checksum: r.checksum,
  finished: r.finished_at != null,
  rolledBack: r.rolled_back_at != null,
});
const SELECT_APPLIED =
  'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at, migration_name';

export function sqliteMigrationDriver(file: string): MigrationDriver {
  const db = new Database(file);
  db.pragma("busy_timeout = 5000");
  // WAL is a property of the file, so setting it here holds for every later connection.
  db.pragma("journal_mode = WAL");
  return {
    async ensureTable() {
      db.exec(SQLITE_TABLE);
    },
    async applied() {
      return (db.prepare(SELECT_APPLIED).all() as Row[]).map(toApplied);
    },
    async apply(id, name, checksum, sql) {
      db.transaction(() => {
        db.exec(sql);
        db.prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES (?, ?, current_timestamp, ?, current_timestamp, 1)`,
        ).run(id, checksum, name);
      }).immediate();
    },
    async withLock(fn) {
      // BEGIN IMMEDIATE inside apply() already serialises writers on one file.
      return fn();
    },
    async close() {
      db.close();
    },
  };
}

export function pgMigrationDriver(url: string): MigrationDriver {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  return {
    async ensureTable() {
      await connected;
      await client.query(PG_TABLE);
    },
    async applied() {
      await connected;
      return (await client.query<Row>(SELECT_APPLIED)).rows.map(toApplied);
    },
    async apply(id, name, checksum, sql) {
      await connected;
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [id, checksum, name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    },
    async withLock(fn) {
      await connected;
      await client.query("SELECT pg_advisory_lock($1)", [PG_ADVISORY_LOCK]);
      try {
        return await fn();
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [PG_ADVISORY_LOCK]);
      }
    },
    async close() {
      await connected.catch(() => undefined);
      await client.end();
    },
  };
}

export function migrationDriverFor(target: DatabaseTarget): MigrationDriver {
  return target.kind === "sqlite" ? sqliteMigrationDriver(target.file) : pgMigrationDriver(target.url);
}
