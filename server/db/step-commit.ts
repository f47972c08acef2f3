// The lean step commit of an opened database, built on its first commit:
// prepared statements on the driver (step-commit-drivers.ts) behind group
// commit (group-commit.ts).
import { stepCommitSlot, type Db } from "./client";
import { GroupCommitter } from "./group-commit";
import { PgStepDriver, SqliteStepDriver } from "./step-commit-drivers";
import { PG_STEP_POOL, pgStepPoolOf } from "./pg-step-pool";

/** The committer for this client, or undefined when it was opened without the lean path. */
export function leanStepCommitter(db: Db): GroupCommitter | undefined {
  const slot = stepCommitSlot(db);
  if (!slot) return undefined;
  if (!slot.committer) {
    const driver =
      slot.target.kind === "sqlite" ? new SqliteStepDriver(slot.sqlite) : new PgStepDriver(pgStepPoolOf(slot));
    // SQLite has one writer: batches follow each other, as large as they come.
    // PostgreSQL answers statement by statement (only BEGIN and savepoints
    // ride along with the statement behind them), so a huge batch is a long
    // chain of round trips: smaller batches on every pooled client. A batch
    // locks its loops' rows up front in id order, the lease renewal's order,
    // so the two cannot deadlock (step-commit-drivers.ts).
    slot.committer = new GroupCommitter(
      driver,
      slot.groupCommitMs,
      slot.target.kind === "sqlite" ? { maxBatch: 256, concurrency: 1 } : { maxBatch: 16, concurrency: PG_STEP_POOL },
      slot.stats,
    );
  }
  return slot.committer as GroupCommitter;
}
