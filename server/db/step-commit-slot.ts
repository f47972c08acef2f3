// What openDatabase leaves for the lean step commit (step-commit.ts), which is
// built on first use: kept apart so the client module imports no repository.
import type BetterSqlite3 from "better-sqlite3";
import type { DatabaseTarget } from "./database-target";

export interface GroupCommitStats {
  /** Transactions committed (or attempted) by the lean path. */
  transactions: number;
  /** Step writes those transactions carried. */
  writes: number;
  largestBatch: number;
}

/** A FIFO lock: Prisma's interactive transactions and lean batches take turns on SQLite's one connection. */
export class ConnectionLock {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => held);
    return ready;
  }
}

export interface SqliteConnection {
  client: BetterSqlite3.Database;
  lock: ConnectionLock;
}

export interface StepCommitSlot {
  target: DatabaseTarget;
  groupCommitMs: number;
  stats: GroupCommitStats;
  /** SQLite: the connection Prisma's adapter opened (connecting first if needed). */
  sqlite: () => Promise<SqliteConnection>;
  /** The committer, once built; closed with the database. */
  committer?: { close(): Promise<void> };
  /** PostgreSQL: the lean pg pool (pg-step-pool.ts), once made; ended with the database, after the committer. */
  pgPool?: { end(): Promise<void> };
}
