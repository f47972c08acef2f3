// Idempotency keys of mutating MCP tool calls (server/mcp/idempotency.ts):
// claimed before the call runs, completed with its answer, released when the
// call failed so the same request may be tried again.
import type { Db } from "./client";
import { isStorageConflict } from "./storage-errors";

export interface IdempotencyKeyRow {
  tool: string;
  requestHash: string;
  /** The first call's answer (JSON text); null while it is still running. */
  response: string | null;
}

const KEY = (userId: string, key: string) => ({ userId_key: { userId, key } });

/**
 * Claims `key` for this request. Returns null when the claim is ours (run the
 * call), else the row that holds the key: the unique key makes two concurrent
 * first calls one winner and one reader.
 */
export async function claimIdempotencyKey(
  prisma: Db,
  row: { userId: string; key: string; tool: string; requestHash: string; at: Date },
): Promise<IdempotencyKeyRow | null> {
  try {
    await prisma.idempotencyKey.create({
      data: { userId: row.userId, key: row.key, tool: row.tool, requestHash: row.requestHash, createdAt: row.at },
    });
    return null;
  } catch (error) {
    if (!isStorageConflict(error)) throw error;
    const held = await prisma.idempotencyKey.findUnique({
      where: KEY(row.userId, row.key),
      select: { tool: true, requestHash: true, response: true },
    });
    // Released between our insert and this read: claim again.
    return held ?? claimIdempotencyKey(prisma, row);
  }
}

export async function completeIdempotencyKey(prisma: Db, userId: string, key: string, response: string) {
  await prisma.idempotencyKey.update({ where: KEY(userId, key), data: { response } });
}

export async function releaseIdempotencyKey(prisma: Db, userId: string, key: string) {
  await prisma.idempotencyKey.deleteMany({ where: { userId, key, response: null } });
}

/** Keys older than `before` are forgotten: a retry that late is a new request. */
export async function pruneIdempotencyKeys(prisma: Db, before: Date): Promise<number> {
  return (await prisma.idempotencyKey.deleteMany({ where: { createdAt: { lt: before } } })).count;
}
