// The Prisma client for either provider. Both generated clients come from one
// schema, so their model APIs are identical; the SQLite client's type stands for both.
// Kept apart from client.ts (which composes the opened database with its loop
// store) so repositories can name the client's type without importing the stores.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient as SqlitePrismaClient } from "./generated/sqlite/client";
import { PrismaClient as PgPrismaClient } from "./generated/postgresql/client";
import type { DatabaseKind, DatabaseTarget } from "./database-target";
import { scrubText } from "./text-scrub";
import { ConnectionLock, type SqliteConnection } from "./step-commit-slot";
import type BetterSqlite3 from "better-sqlite3";

export type Db = SqlitePrismaClient;

/** What a reader that differs per provider needs of the opened database (events.repo.ts, event-signals.ts). */
export interface PrismaHandle {
  kind: DatabaseKind;
  prisma: Db;
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

/**
 * The adapter's single better-sqlite3 connection, shared with the SQLite loop
 * store. Prisma's interactive transactions and the store's statements take one
 * lock in turn, so a store statement never runs inside a transaction Prisma has open.
 */
function sqliteFactory(url: string, onConnect: (connection: SqliteConnection) => void) {
  const inner = new PrismaBetterSqlite3({ url, timeout: 5000 }, { timestampFormat: "iso8601" });
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect(): Promise<SqlDriverAdapter> {
      const adapter = await inner.connect();
      await adapter.executeScript(SQLITE_PRAGMAS);
      const lock = new ConnectionLock();
      onConnect({ client: (adapter as unknown as { client: BetterSqlite3.Database }).client, lock });
      return withTransactionLock(adapter, lock);
    },
    connectToShadowDb: () => inner.connectToShadowDb(),
  };
  return factory;
}

/** The adapter, with startTransaction holding `lock` until its commit or rollback. */
function withTransactionLock(adapter: SqlDriverAdapter, lock: ConnectionLock): SqlDriverAdapter {
  const startTransaction: SqlDriverAdapter["startTransaction"] = async (isolationLevel) => {
    const release = await lock.acquire();
    try {
      const tx = await adapter.startTransaction(isolationLevel);
      let released = false;
      const once = () => {
        if (!released) release();
        released = true;
      };
      const commit = tx.commit.bind(tx);
      const rollback = tx.rollback.bind(tx);
      tx.commit = () => commit().finally(once);
      tx.rollback = () => rollback().finally(once);
      return tx;
    } catch (error) {
      release();
      throw error;
    }
  };
  // The adapter keeps private fields: its own methods must run with itself as `this`.
  return new Proxy(adapter, {
    get(target, prop) {
      if (prop === "startTransaction") return startTransaction;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
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

/**
 * The Prisma client for `target`. `onSqliteConnect` receives the SQLite
 * adapter's connection when Prisma opens it (lazily, on first use).
 */
export function openPrismaClient(
  target: DatabaseTarget,
  poolSize: number,
  onSqliteConnect: (connection: SqliteConnection) => void,
): Db {
  const base =
    target.kind === "sqlite"
      ? new SqlitePrismaClient({ adapter: sqliteFactory(target.url, onSqliteConnect) })
      : (new PgPrismaClient({ adapter: pgAdapter(target.url, poolSize) }) as unknown as Db);
  // Every model operation's arguments (data and filters) lose their NULs here, once for both providers.
  return base.$extends({
    query: { $allModels: { $allOperations: ({ args, query }) => query(scrubText(args)) } },
  }) as unknown as Db;
}
