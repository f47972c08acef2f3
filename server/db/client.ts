// An opened database: the Prisma client for the cold paths (prisma-client.ts)
// and the loop store for the runtime's hot path (loop-store/), the store chosen
// here, once, by the database's kind.
import { openPrismaClient, type Db } from "./prisma-client";
import type { DatabaseKind, DatabaseTarget } from "./database-target";
import type { GroupCommitStats, SqliteConnection } from "./step-commit-slot";
import type { LoopStore } from "./loop-store/loop-store.port";
import { SqliteLoopStore } from "./loop-store/sqlite-loop-store";
import { PostgresLoopStore } from "./loop-store/postgres-loop-store";
import { PG_LEAN_CONNECTIONS, PgStepPool } from "./pg-step-pool";

export type { Db };
export { SQLITE_PRAGMAS } from "./prisma-client";

export interface Database {
  kind: DatabaseKind;
  target: DatabaseTarget;
  prisma: Db;
  /** The runtime's hot path: claim, restore, mark in flight, controls, step commit, fail, renew. */
  loopStore: LoopStore;
  /** The step commit's group commit window and counters. */
  stepCommit: { groupCommitMs: number; stats: GroupCommitStats };
  close(): Promise<void>;
}

/** How long a step commit waits for company by default (RALPH_GROUP_COMMIT_MS). */
export const DEFAULT_GROUP_COMMIT_MS = 2;

export interface OpenOptions {
  poolSize?: number;
  /** Group commit window in ms (0: each step commits alone). */
  groupCommitMs?: number;
}

export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Database {
  let sqlite: SqliteConnection | undefined;
  const prisma = openPrismaClient(target, options.poolSize ?? 10, (c) => (sqlite = c));
  const groupCommitMs = options.groupCommitMs ?? DEFAULT_GROUP_COMMIT_MS;
  const stats: GroupCommitStats = { transactions: 0, writes: 0, largestBatch: 0 };
  const loopStore: LoopStore =
    target.kind === "sqlite"
      ? new SqliteLoopStore(
          prisma,
          async () => {
            // Prisma connects lazily; the store needs the connection it makes.
            if (!sqlite) await prisma.$connect();
            if (!sqlite) throw new Error("the SQLite connection is not open");
            return sqlite;
          },
          groupCommitMs,
          stats,
        )
      : new PostgresLoopStore(prisma, new PgStepPool(target.url, PG_LEAN_CONNECTIONS), groupCommitMs, stats);
  return {
    kind: target.kind,
    target,
    prisma,
    loopStore,
    stepCommit: { groupCommitMs, stats },
    close: async () => {
      await loopStore.close();
      await prisma.$disconnect();
    },
  };
}
