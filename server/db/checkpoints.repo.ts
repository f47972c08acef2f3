// Checkpoint reads beyond the current one (loop-steps.repo.ts): any stored
// point of a loop's history, which a fork continues from; and what a stored
// checkpoint cites: its parts (CheckpointPart) and the iteration row holding
// its last output.
import type { Db } from "./client";
import { sqliteLean } from "./sqlite-lean";
import type { Tx } from "./tx";
import { citedByCheckpointOnPg, pgLean } from "./pg-lean";

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

const CITED_PARTS_SQLITE = `SELECT "hash", "body" FROM "CheckpointPart"
  WHERE "loopId" = ? AND "hash" IN (SELECT "value" FROM json_each(?))`;
const CITED_OUTPUT_SQLITE = `SELECT "output" FROM "Iteration" WHERE "id" = ?`;

type Cited = { parts: Map<string, string>; output: string | undefined };

/** The parts and the output a stored checkpoint cites, by hash and by row id. */
export async function citedByCheckpoint(
  db: Db,
  loopId: string,
  cites: { parts: string[]; outputRow: string | null },
): Promise<Cited> {
  const pg = pgLean(db);
  if (pg) return citedByCheckpointOnPg(pg, loopId, cites);
  const lean = sqliteLean(db);
  if (lean) {
    // Both reads at once on prepared statements (every slice restores a checkpoint first).
    return lean.run((prepare) => {
      const parts = cites.parts.length
        ? (prepare(CITED_PARTS_SQLITE).all(loopId, JSON.stringify(cites.parts)) as { hash: string; body: string }[])
        : [];
      const output = cites.outputRow
        ? (prepare(CITED_OUTPUT_SQLITE).get(cites.outputRow) as { output: string } | undefined)
        : undefined;
      return { parts: new Map(parts.map((p) => [p.hash, p.body])), output: output?.output };
    });
  }
  const [parts, output] = await Promise.all([
    cites.parts.length
      ? db.checkpointPart.findMany({ where: { loopId, hash: { in: cites.parts } }, select: { hash: true, body: true } })
      : [],
    cites.outputRow ? db.iteration.findUnique({ where: { id: cites.outputRow }, select: { output: true } }) : null,
  ]);
  return { parts: new Map(parts.map((p) => [p.hash, p.body])), output: output?.output };
}
