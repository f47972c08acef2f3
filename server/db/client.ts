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
import { ConnectionLock, type GroupCommitStats, type SqliteConnection, type StepCommitSlot } from "./step-commit-slot";
import type BetterSqlite3 from "better-sqlite3";

export type Db = SqlitePrismaClient;

export interface Database {
  kind: DatabaseKind;
  target: DatabaseTarget;
  prisma: Db;
  /** The lean step commit (null: commitStep goes through Prisma). */
  stepCommit: { groupCommitMs: number; stats: GroupCommitStats } | null;
  close(): Promise<void>;
}

/** How long a step commit waits for company by default (RALPH_GROUP_COMMIT_MS). */
export const DEFAULT_GROUP_COMMIT_MS = 2;

// What the lean step commit needs of each opened client, found by commitStep from the client it is given.
const slots = new WeakMap<object, StepCommitSlot>();

export function stepCommitSlot(db: Db): StepCommitSlot | undefined {
  return slots.get(db);
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
 * The adapter's single better-sqlite3 connection, shared with the lean step
 * commit. Prisma's interactive transactions and the lean batches take one lock
 * in turn, so a lean batch never runs inside a transaction Prisma has open.
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

export interface OpenOptions {
  poolSize?: number;
  /** Group commit window in ms (0: each step commits alone). */
  groupCommitMs?: number;
  /** false: step commits go through Prisma (the bench's baseline). */
  leanStepCommit?: boolean;
}

export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Database {
  let sqlite: SqliteConnection | undefined;
  const base =
    target.kind === "sqlite"
      ? new SqlitePrismaClient({ adapter: sqliteFactory(target.url, (c) => (sqlite = c)) })
      : (new PgPrismaClient({ adapter: pgAdapter(target.url, options.poolSize ?? 10) }) as unknown as Db);
  // Every model operation's arguments (data and filters) lose their NULs here, once for both providers.
  const prisma = base.$extends({
    query: { $allModels: { $allOperations: ({ args, query }) => query(scrubText(args)) } },
  }) as unknown as Db;
  const groupCommitMs = options.groupCommitMs ?? DEFAULT_GROUP_COMMIT_MS;
  let slot: StepCommitSlot | null = null;
  if (options.leanStepCommit !== false) {
    slot = {
      target,
      groupCommitMs,
      stats: { transactions: 0, writes: 0, largestBatch: 0 },
      sqlite: async () => {
        // Prisma connects lazily; the lean path needs the connection it makes.
        if (!sqlite) await prisma.$connect();
        if (!sqlite) throw new Error("the SQLite connection is not open");
        return sqlite;
      },
    };
    slots.set(prisma, slot);
  }
  return {
    kind: target.kind,
    target,
    prisma,
    stepCommit: slot ? { groupCommitMs, stats: slot.stats } : null,
    close: async () => {
      await slot?.committer?.close();
      await slot?.pgPool?.end();
      await prisma.$disconnect();
    },
  };
}
