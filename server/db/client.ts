// The Prisma client for either provider. Both generated clients come from one
// schema, so their model APIs are identical; the SQLite client's type stands for both.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient as SqlitePrismaClient } from "./generated/sqlite/client";
import { PrismaClient as PgPrismaClient } from "./generated/postgresql/client";
import type { DatabaseKind, DatabaseTarget } from "./database-target";
import { scrubText } from "./text-scrub";

export type Db = SqlitePrismaClient;

export interface Database {
  kind: DatabaseKind;
  target: DatabaseTarget;
  prisma: Db;
  close(): Promise<void>;
}

/**
 * SQLite settings applied to the app's connection.
 * - WAL: readers never block the writer, and commits are one sequential append.
 * - synchronous=FULL: a committed iteration survives a power loss, not only a
 *   process kill. Losing a checkpoint the UI already showed is the failure
 *   operators complain about most, and WAL+FULL still commits in well under a
 *   millisecond on this kind of disk, so durability wins.
 * - busy_timeout: another process (a CLI script) holding the write lock makes
 *   us wait instead of failing.
 * - foreign_keys: enforce the same relations PostgreSQL does.
 */
export const SQLITE_PRAGMAS =
  "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;";

function sqliteFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const inner = new PrismaBetterSqlite3({ url, timeout: 5000 }, { timestampFormat: "iso8601" });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect(): Promise<SqlDriverAdapter> {
      const adapter = await inner.connect();
      await adapter.executeScript(SQLITE_PRAGMAS);
      return adapter;
    },
    connectToShadowDb: () => inner.connectToShadowDb(),
  };
}

/** Logs a dropped pooled connection instead of letting it become an unhandled 'error' event. */
const onPgError = (where: string) => (error: Error) => {
  console.warn(`postgresql ${where} error (retried on next use): ${error.message}`);
};

/**
 * A pooled client that can never raise an unhandled 'error'. pg-pool listens only
 * while a client is idle and the adapter only inside a transaction, so a server
 * that terminates a connection just as it is checked out (or between the two)
 * would otherwise crash the process. The failing query still sees the error.
 */
class GuardedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", onPgError("pooled client"));
  }
}

function pgAdapter(url: string, max: number) {
  return new PrismaPg(
    // keepAlive notices a dead server between queries; a failed connect is retried by the next query.
    { connectionString: url, max, keepAlive: true, connectionTimeoutMillis: 10_000, Client: GuardedClient },
    { onPoolError: onPgError("idle pool client"), onConnectionError: onPgError("transaction connection") },
  );
}

export function openDatabase(target: DatabaseTarget, options: { poolSize?: number } = {}): Database {
  const base =
    target.kind === "sqlite"
      ? new SqlitePrismaClient({ adapter: sqliteFactory(target.url) })
      : (new PgPrismaClient({ adapter: pgAdapter(target.url, options.poolSize ?? 10) }) as unknown as Db);
  // Every model operation's arguments (data and filters) lose their NULs here, once for both providers.
  const prisma = base.$extends({
    query: { $allModels: { $allOperations: ({ args, query }) => query(scrubText(args)) } },
  }) as unknown as Db;
  return {
    kind: target.kind,
    target,
    prisma,
    close: () => prisma.$disconnect(),
  };
}
