// Loop rows: creating and starting them, and the reads behind the list and
// detail views. Writes that the runtime makes are compare-and-set on `version`
// are the loop store's (loop-store/).
import type { Db } from "./prisma-client";
import type { Prisma } from "./generated/sqlite/client";
import type { CheckpointRow } from "./step-write";
import type { Tx } from "./tx";
import { insertCheckpointParts } from "./checkpoints.repo";

/** A new loop row; its checkpoint is passed beside it, and the lease starts free. */
export type NewLoopRow = Omit<
  Prisma.LoopUncheckedCreateInput,
  "checkpointId" | "version" | "leaseOwner" | "leaseExpiresAt"
> & { id: string };

export interface LoopListFilter {
  status?: string[];
  agentKind?: string[];
  text?: string;
}

export type LoopSort = "updated" | "created" | "cost" | "iteration";

export interface LoopListQuery extends LoopListFilter {
  sort: LoopSort;
  direction: "asc" | "desc";
  limit: number;
  cursor?: string;
}

export const LOOP_SORT_COLUMNS: Record<LoopSort, keyof Prisma.LoopOrderByWithRelationInput> = {
  updated: "updatedAt",
  created: "createdAt",
  cost: "costUsd",
  iteration: "iteration",
};

function where(filter: LoopListFilter): Prisma.LoopWhereInput {
  return {
    ...(filter.status?.length ? { status: { in: filter.status } } : {}),
    ...(filter.agentKind?.length ? { agentKind: { in: filter.agentKind } } : {}),
    ...(filter.text ? { OR: [{ goal: { contains: filter.text } }, { name: { contains: filter.text } }] } : {}),
  };
}

export async function listLoops(db: Db, query: LoopListQuery) {
  const rows = await db.loop.findMany({
    where: where(query),
    orderBy: [{ [LOOP_SORT_COLUMNS[query.sort]]: query.direction }, { id: query.direction }],
    take: query.limit + 1,
    ...(query.cursor ? { cursor: { id: query.cursor }, skip: 1 } : {}),
  });
  const hasMore = rows.length > query.limit;
  const items = hasMore ? rows.slice(0, query.limit) : rows;
  return { items, nextCursor: hasMore ? items[items.length - 1]?.id : undefined };
}

export const countLoops = (db: Db, filter: LoopListFilter) => db.loop.count({ where: where(filter) });

export const loopById = (db: Db | Tx, id: string) => db.loop.findUnique({ where: { id } });

/** What a fork's lineage needs of a loop: its name and where it was forked from. */
export const loopLineageById = (db: Db, id: string) =>
  db.loop.findUnique({
    where: { id },
    select: { id: true, name: true, goal: true, forkedFromId: true, forkedFromIteration: true },
  });

export async function loopExists(db: Db, id: string): Promise<boolean> {
  return (await db.loop.findUnique({ where: { id }, select: { id: true } })) !== null;
}

/** What "clone" starts from: the stored definition and the names around it. */
export const loopDefinitionById = (db: Db, id: string) =>
  db.loop.findUnique({ where: { id }, select: { id: true, name: true, goal: true, config: true } });

/** A loop is born with its first checkpoint: the row points at it, so both are written together. */
export async function insertLoop(tx: Tx, loop: NewLoopRow, checkpoint: CheckpointRow): Promise<void> {
  const { parts, ...row } = checkpoint;
  await tx.loop.create({ data: { ...loop, checkpointId: row.id } });
  await insertCheckpointParts(tx, loop.id, parts ?? []);
  await tx.checkpoint.create({ data: { ...row, loopId: loop.id } });
}

/** Draft → queued, compare-and-set: false when the loop was not (or no longer) a draft. */
export async function queueDraftLoop(tx: Db | Tx, id: string): Promise<boolean> {
  const updated = await tx.loop.updateMany({
    where: { id, status: "draft" },
    data: { status: "queued", version: { increment: 1 } },
  });
  return updated.count === 1;
}

/** Which of these loops have a pending control of one of these kinds. */
export async function loopsWithPendingControl(db: Db, loopIds: string[], kinds: string[]): Promise<Set<string>> {
  if (loopIds.length === 0) return new Set();
  const rows = await db.controlRequest.findMany({
    where: { loopId: { in: loopIds }, status: "pending", kind: { in: kinds } },
    select: { loopId: true },
  });
  return new Set(rows.map((r) => r.loopId));
}

/** Every loop's name and outcome, oldest first: what a seeding script reports. */
export const loopOutcomes = (db: Db) =>
  db.loop.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { name: true, status: true, stopType: true, iteration: true },
  });
