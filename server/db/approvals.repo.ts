// Approval gates as stored rows: opened and settled by the runtime with its
// step (the loop store's step commit), read here for the detail view.
import type { Db } from "./prisma-client";

/** The newest `limit` gates of a loop, pending or decided, newest first. */
export const recentApprovals = (db: Db, loopId: string, limit: number) =>
  db.approval.findMany({ where: { loopId }, orderBy: { requestedAt: "desc" }, take: limit });
