// Checkpoint reads beyond the current one (loop-steps.repo.ts): any stored
// point of a loop's history, which a fork continues from.
import type { Db } from "./client";

/** The newest checkpoint written after `iteration` (a retried iteration writes more than one). */
export const checkpointAfterIteration = (db: Db, loopId: string, iteration: number) =>
  db.checkpoint.findFirst({ where: { loopId, iteration }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
