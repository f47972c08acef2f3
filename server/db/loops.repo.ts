// Loop reads for the list and detail views. Writes that the runtime makes are
// compare-and-set on `version` and live beside the runtime's repositories.
import type { Db } from "./client";
import type { Prisma } from "./generated/sqlite/client";

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

const ORDER: Record<LoopSort, keyof Prisma.LoopOrderByWithRelationInput> = {
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
    orderBy: [{ [ORDER[query.sort]]: query.direction }, { id: query.direction }],
    take: query.limit + 1,
    ...(query.cursor ? { cursor: { id: query.cursor }, skip: 1 } : {}),
  });
  const hasMore = rows.length > query.limit;
  const items = hasMore ? rows.slice(0, query.limit) : rows;
  return { items, nextCursor: hasMore ? items[items.length - 1]?.id : undefined };
}

export const countLoops = (db: Db, filter: LoopListFilter) => db.loop.count({ where: where(filter) });
