// Single statements a running slice issues at every safe point or claim, on
// SQLite: prepared once on the connection Prisma's adapter opened (its adapter
// prepares each query anew, and a Prisma query costs about a millisecond of
// CPU), run under the lock Prisma's interactive transactions and the step
// commit's batches take, so a read never sees a transaction's uncommitted rows
// and a write never joins one. PostgreSQL's counterparts are in pg-lean.ts.
import type BetterSqlite3 from "better-sqlite3";
import { stepCommitSlot, type Db } from "./client";
import type { StepCommitSlot } from "./step-commit-slot";

export type PrepareStatement = (sql: string) => BetterSqlite3.Statement;

const cache = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

export class SqliteLean {
  constructor(private readonly slot: StepCommitSlot) {}

  /** Runs `fn` synchronously while holding the connection: nothing else runs on it meanwhile. */
  async run<T>(fn: (prepare: PrepareStatement) => T): Promise<T> {
    const { client, lock } = await this.slot.sqlite();
    let statements = cache.get(client);
    if (!statements) cache.set(client, (statements = new Map()));
    const known = statements;
    const prepare: PrepareStatement = (sql) => {
      let statement = known.get(sql);
      if (!statement) {
        statement = client.prepare(sql);
        // The adapter turns safe integers on for its connection; counters and ids here are small.
        if (statement.reader) statement.safeIntegers(false);
        known.set(sql, statement);
      }
      return statement;
    };
    const release = await lock.acquire();
    try {
      return fn(prepare);
    } finally {
      release();
    }
  }
}

/** The lean path for this client, or null (PostgreSQL, or a client opened without it). */
export function sqliteLean(db: Db): SqliteLean | null {
  const slot = stepCommitSlot(db);
  return slot && slot.target.kind === "sqlite" ? new SqliteLean(slot) : null;
}
