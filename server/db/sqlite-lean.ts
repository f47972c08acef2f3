// The SQLite loop store's statements (every safe point, claim and step commit):
// prepared once on the connection Prisma's adapter opened (its adapter
// prepares each query anew, and a Prisma query costs about a millisecond of
// CPU), run under the lock Prisma's interactive transactions and the step
// commit's batches take, so a read never sees a transaction's uncommitted rows
// and a write never joins one.
import type BetterSqlite3 from "better-sqlite3";
import type { SqliteConnection } from "./step-commit-slot";

export type PrepareStatement = (sql: string) => BetterSqlite3.Statement;

const cache = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

export class SqliteLean {
  constructor(private readonly connection: () => Promise<SqliteConnection>) {}

  /** Runs `fn` synchronously while holding the connection: nothing else runs on it meanwhile. */
  async run<T>(fn: (prepare: PrepareStatement, client: BetterSqlite3.Database) => T): Promise<T> {
    const { client, lock } = await this.connection();
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
      return fn(prepare, client);
    } finally {
      release();
    }
  }
}
