// The lean step commit's two drivers: prepared statements on better-sqlite3
// (the very connection Prisma's adapter uses) and named prepared statements on
// a pooled pg client. Both run a batch of step writes in one transaction, each
// write in its own savepoint when there are several.
import type BetterSqlite3 from "better-sqlite3";
import type pg from "pg";
import type { PgStepPool } from "./pg-step-pool";
import type { StepDriver, StepOutcome } from "./group-commit";
import { SqliteLean, type PrepareStatement } from "./sqlite-lean";
import type { SqliteConnection } from "./step-commit-slot";
import type { StepWrite } from "./step-write";
import { POSTGRES_ENCODING, SQLITE_ENCODING } from "./step-encoding";
import { stepProgram, type Statement, type StatementResult, type StepProgram } from "./step-commit-sql";

const SAVEPOINT = "step_write";

/**
 * SQLite: the whole batch runs synchronously between BEGIN IMMEDIATE and
 * COMMIT, holding the lock Prisma's transactions take too. Nothing else can
 * run on the connection meanwhile (no await inside), so no foreign query ever
 * joins this transaction, and no second connection can deadlock against
 * Prisma's own transaction in this process.
 */
export class SqliteStepDriver implements StepDriver {
  private readonly lean: SqliteLean;

  constructor(connection: () => Promise<SqliteConnection>) {
    this.lean = new SqliteLean(connection);
  }

  runBatch(writes: StepWrite[]): Promise<StepOutcome[]> {
    return this.lean.run((prepare, client) => runSqliteBatch(prepare, client, writes));
  }

  close() {
    return Promise.resolve();
  }
}

function runSqliteStatement(prepare: PrepareStatement, { sql, params }: Statement): StatementResult {
  const statement = prepare(sql);
  if (statement.reader) {
    const rows = statement.all(...params) as Record<string, unknown>[];
    return { changes: rows.length, rows };
  }
  return { changes: statement.run(...params).changes, rows: [] };
}

function runSqliteBatch(prepare: PrepareStatement, client: BetterSqlite3.Database, writes: StepWrite[]): StepOutcome[] {
  const now = new Date();
  const alone = writes.length === 1;
  const exec = (sql: string) => prepare(sql).run();
  const drive = (program: StepProgram) => {
    let next = program.next();
    while (!next.done) next = program.next(runSqliteStatement(prepare, next.value));
    return next.value;
  };
  const outcomes: StepOutcome[] = [];
  try {
    exec("BEGIN IMMEDIATE");
    for (const write of writes) {
      if (!alone) exec(`SAVEPOINT ${SAVEPOINT}`);
      try {
        outcomes.push({ ok: true, value: drive(stepProgram(SQLITE_ENCODING, write, now)) });
        if (!alone) exec(`RELEASE ${SAVEPOINT}`);
      } catch (error) {
        // Alone, or SQLite rolled the whole transaction back (I/O error, full disk): fail the batch.
        if (alone || !client.inTransaction) throw error;
        exec(`ROLLBACK TO ${SAVEPOINT}`);
        exec(`RELEASE ${SAVEPOINT}`);
        outcomes.push({ ok: false, error });
      }
    }
    exec("COMMIT");
    return outcomes;
  } catch (error) {
    if (client.inTransaction) exec("ROLLBACK");
    return writes.map(() => ({ ok: false, error }));
  }
}

/**
 * A batch of several loops takes all their rows' locks first, in id order, so
 * two batches that share loops (a stale holder's and a thief's, in two
 * processes) cannot deadlock; the lease renewal never waits while it holds a
 * row (renewLeases), so it cannot close a cycle with a batch either. Taken
 * before the first savepoint, the locks belong to the whole transaction and
 * outlive a write rolled back to its savepoint. NO KEY UPDATE is what the
 * step's own UPDATE takes: it does not block foreign-key checks of rows other
 * transactions insert for the loop.
 */
const lockLoopRows = (writes: StepWrite[]): Statement => ({
  sql: `SELECT 1 FROM "Loop" WHERE "id" = ANY(?::text[]) ORDER BY "id" FOR NO KEY UPDATE`,
  params: [[...new Set(writes.map((w) => w.loopId))]],
});

/** PostgreSQL: one client of the lean pool per batch, statements prepared once per connection by name. */
export class PgStepDriver implements StepDriver {
  constructor(private readonly lean: PgStepPool) {}

  /**
   * `statement`, with the transaction-control statements `heads` (simple
   * queries: BEGIN, SAVEPOINT, RELEASE) in front of it on the same write: the
   * lean pool's clients pipeline (pg-step-pool.ts), so they cost one round trip,
   * not one each. Each keeps its own result and error: a failing head fails
   * this call, and the statement behind it then runs in an aborted transaction,
   * which fails too.
   */
  private async send(client: pg.PoolClient, heads: string[], statement: Statement): Promise<pg.QueryResult> {
    if (heads.length === 0) return client.query(this.lean.named(statement));
    const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection
      .stream;
    stream.cork();
    let sent: Promise<pg.QueryResult>[];
    try {
      sent = [client.query(heads.join("; ")), client.query(this.lean.named(statement))];
    } finally {
      stream.uncork();
    }
    return (await Promise.all(sent))[1]!;
  }

  /** Runs a write's statements; `heads` go out with its first one. */
  private async drive(client: pg.PoolClient, program: StepProgram, heads: string[]) {
    let next = program.next();
    let pending = heads;
    while (!next.done) {
      const result = await this.send(client, pending, next.value);
      pending = [];
      next = program.next({ changes: result.rowCount ?? 0, rows: result.rows as Record<string, unknown>[] });
    }
    if (pending.length) await client.query(pending.join("; "));
    return next.value;
  }

  async runBatch(writes: StepWrite[]): Promise<StepOutcome[]> {
    const client = await this.lean.pool.connect();
    let broken: Error | undefined;
    const now = new Date();
    const alone = writes.length === 1;
    const outcomes: StepOutcome[] = [];
    try {
      if (alone) {
        outcomes.push({
          ok: true,
          value: await this.drive(client, stepProgram(POSTGRES_ENCODING, writes[0]!, now), ["BEGIN"]),
        });
        await client.query("COMMIT");
        return outcomes;
      }
      await this.send(client, ["BEGIN"], lockLoopRows(writes));
      // A write's savepoint is released with the next one's creation (or the COMMIT): one round trip for both.
      let release = false;
      for (const write of writes) {
        const heads = [...(release ? [`RELEASE SAVEPOINT ${SAVEPOINT}`] : []), `SAVEPOINT ${SAVEPOINT}`];
        release = false;
        try {
          outcomes.push({
            ok: true,
            value: await this.drive(client, stepProgram(POSTGRES_ENCODING, write, now), heads),
          });
          release = true;
        } catch (error) {
          // A connection lost here fails the whole batch (the outer catch).
          await client.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}; RELEASE SAVEPOINT ${SAVEPOINT}`);
          outcomes.push({ ok: false, error });
        }
      }
      await client.query(release ? `RELEASE SAVEPOINT ${SAVEPOINT}; COMMIT` : "COMMIT");
      return outcomes;
    } catch (error) {
      try {
        await client.query("ROLLBACK");
      } catch (rollbackError) {
        broken = rollbackError as Error;
      }
      return writes.map(() => ({ ok: false, error }));
    } finally {
      client.release(broken);
    }
  }

  /** The pool is the PostgreSQL loop store's (its single statements share it): the store ends it. */
  close() {
    return Promise.resolve();
  }
}
