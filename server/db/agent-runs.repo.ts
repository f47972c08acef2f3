// What the runtime records about agent processes: the in-flight agent's
// process group and the spend it reported (written while it runs, read after
// a crash), and the role a loop's agents act with (its creator's).
import type { Db } from "./prisma-client";

export type Role = "viewer" | "operator" | "admin";

export interface InflightAgent {
  group?: { pgid: number; host: string; bootId: string | null; startTicks: number | null; marker: string | null };
  spend?: { input: number; output: number; cache: number; costUsd: number };
}

/** Fenced by the lease and the iteration number: a stale runtime or a finished iteration writes nothing. */
export async function recordInflightAgent(
  prisma: Db,
  loopId: string,
  owner: string,
  iteration: number,
  agent: InflightAgent,
): Promise<boolean> {
  const updated = await prisma.loop.updateMany({
    where: { id: loopId, leaseOwner: owner, inflightIteration: iteration },
    data: { inflightAgent: agent as object },
  });
  return updated.count === 1;
}

export function parseInflightAgent(value: unknown): InflightAgent | null {
  if (typeof value !== "object" || value === null) return null;
  return value as InflightAgent;
}

/**
 * The loop's agents use stored secrets with its creator's current rights: a
 * loop created by a local tool (no creator) acts as admin; a deleted or
 * disabled creator's loops as viewer, which may use no secret.
 */
export async function loopCreatorRole(prisma: Db, loopId: string): Promise<Role> {
  const loop = await prisma.loop.findUnique({ where: { id: loopId }, select: { createdById: true } });
  if (!loop?.createdById) return "admin";
  const user = await prisma.user.findUnique({
    where: { id: loop.createdById },
    select: { role: true, disabledAt: true },
  });
  if (!user || user.disabledAt) return "viewer";
  return user.role === "admin" || user.role === "operator" ? user.role : "viewer";
}
