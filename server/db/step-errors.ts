// The step commit's fencing error for idle-loop writes, apart from the repo so
// both of its implementations (Prisma and the lean driver path) can throw it.

/** The loop moved on under an idle-loop write (a runtime claimed it, or another write landed first). */
export class StaleLoopError extends Error {
  constructor(readonly loopId: string) {
    super(`loop ${loopId} changed since it was read`);
    this.name = "StaleLoopError";
  }
}

/** The database was closed with this step still waiting for its commit: nothing of it was stored. */
export class DatabaseClosedError extends Error {
  readonly code = "RALPH_DB_CLOSED";
  constructor(readonly loopId: string) {
    super(`the database was closed before the step of loop ${loopId} was committed; nothing of it was stored`);
    this.name = "DatabaseClosedError";
  }
}
