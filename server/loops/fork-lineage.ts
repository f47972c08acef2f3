// A fork's history: it continues its parent's checkpoint (and numbering), so
// the iterations up to the fork point are the parent's rows, read-only. The
// lineage names, oldest first, whose rows each range of numbers comes from;
// a fork of a fork walks up until a loop that was not forked (or was deleted).
import type { Db } from "../db/client";
import type { IterationSegment } from "../db/iterations.repo";
import { loopLineageById } from "../db/loops.repo";

/** Forks of forks are rare; this bounds the walk should rows ever form a cycle. */
const MAX_DEPTH = 16;

export interface ForkAncestor {
  id: string;
  name: string;
  /** The last iteration of this ancestor the fork inherited. */
  upTo: number;
}

export interface ForkLineage {
  /** Nearest first: the parent, then its parent... */
  ancestors: ForkAncestor[];
  /** Oldest first, the loop's own segment last. */
  segments: IterationSegment[];
}

export async function forkLineage(
  db: Db,
  loop: { id: string; forkedFromId: string | null; forkedFromIteration: number | null },
): Promise<ForkLineage> {
  const ancestors: ForkAncestor[] = [];
  let parentId = loop.forkedFromId;
  let upTo = loop.forkedFromIteration;
  const seen = new Set([loop.id]);
  while (parentId && upTo !== null && !seen.has(parentId) && ancestors.length < MAX_DEPTH) {
    const parent = await loopLineageById(db, parentId);
    if (!parent) break;
    seen.add(parent.id);
    // A fork point never rises going up: a child forked at 10 only holds the grandparent's rows up to 10.
    const bound = Math.min(upTo, ancestors.at(-1)?.upTo ?? upTo);
    ancestors.push({ id: parent.id, name: parent.name || parent.goal, upTo: bound });
    parentId = parent.forkedFromId;
    upTo = parent.forkedFromIteration;
  }
  const segments: IterationSegment[] = [];
  let after = 0;
  for (const a of [...ancestors].reverse()) {
    segments.push({ loopId: a.id, after, upTo: a.upTo });
    after = a.upTo;
  }
  segments.push({ loopId: loop.id, after, upTo: null });
  return { ancestors, segments };
}
