// Checkpoint rows beyond the runtime's (the loop store reads the current one
// and what it cites, and writes them with each step): any stored point of a
// loop's history, which a fork continues from, and the parts a new loop's
// first checkpoint cites.
import type { Db } from "./prisma-client";
import type { Tx } from "./tx";

/** The newest checkpoint written after `iteration` (a retried iteration writes more than one). */
export const checkpointAfterIteration = (db: Db, loopId: string, iteration: number) =>
  db.checkpoint.findFirst({ where: { loopId, iteration }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });

/** Stores the parts a loop does not have yet (a part is its hash's text: one already stored is the same). */
export async function insertCheckpointParts(tx: Tx, loopId: string, parts: { hash: string; body: string }[]) {
  for (const part of parts) {
    await tx.checkpointPart.upsert({
      where: { loopId_hash: { loopId, hash: part.hash } },
      create: { loopId, hash: part.hash, body: part.body },
      update: {},
    });
  }
}
