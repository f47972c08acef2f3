// The lean step commit of an opened database, built on its first commit:
// prepared statements on the driver (step-commit-drivers.ts) behind group
// commit (group-commit.ts).
import type pg from "pg";
import { stepCommitSlot, type Db } from "./client";
import { GroupCommitter } from "./group-commit";
import { PgStepDriver, SqliteStepDriver } from "./step-commit-drivers";

/** Connections of the lean step commit's own pg pool (beside Prisma's). */
const PG_STEP_POOL = 4;

/** Logs a dropped pooled connection instead of letting it become an unhandled 'error' event. */
function guardedClient(Client: typeof pg.Client): typeof pg.Client {
  return class extends Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on("error", (error: Error) =>
        console.warn(`postgresql step client error (retried on next use): ${error.message}`),
      );
    }
  };
}

const pgDrivers = new WeakMap<object, PgStepDriver>();

/**
 * PostgreSQL: the lean step commit's driver (its pool), which pg-lean.ts's single statements share;
 * undefined on SQLite or for a client opened without the lean path. Closed with the database.
 */
export function pgStepDriver(db: Db): PgStepDriver | undefined {
  const slot = stepCommitSlot(db);
  if (slot?.target.kind !== "postgresql") return undefined;
  leanStepCommitter(db);
  return pgDrivers.get(slot);
}

/** The committer for this client, or undefined when it was opened without the lean path. */
export function leanStepCommitter(db: Db): GroupCommitter | undefined {
  const slot = stepCommitSlot(db);
  if (!slot) return undefined;
  if (!slot.committer) {
    let driver: SqliteStepDriver | PgStepDriver;
    if (slot.target.kind === "sqlite") driver = new SqliteStepDriver(slot.sqlite);
    else pgDrivers.set(slot, (driver = new PgStepDriver(slot.target.url, PG_STEP_POOL, guardedClient)));
    // SQLite has one writer: batches follow each other, as large as they come.
    // PostgreSQL answers statement by statement (no pipelining in pg), so a huge
    // batch is a long chain of round trips: smaller batches on every pooled
    // client. A batch locks its loops' rows up front in id order, the lease
    // renewal's order, so the two cannot deadlock (step-commit-drivers.ts).
    slot.committer = new GroupCommitter(
      driver,
      slot.groupCommitMs,
      slot.target.kind === "sqlite" ? { maxBatch: 256, concurrency: 1 } : { maxBatch: 16, concurrency: PG_STEP_POOL },
      slot.stats,
    );
  }
  return slot.committer as GroupCommitter;
}
