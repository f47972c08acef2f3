// What the SQLite loop store shares with Prisma's adapter (its one connection
// and the lock they take turns on), and the step commit's counters.
import type BetterSqlite3 from "better-sqlite3";

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
