// Rate-limit hits in the database, so every app instance (and every worker on
// PostgreSQL) counts the same attempts.
import type { Db } from "./prisma-client";

/** Hits for (bucket, key) since `since`, counting at most `cap` rows. */
export async function countHits(prisma: Db, bucket: string, key: string, since: Date): Promise<number> {
  return prisma.rateLimitHit.count({ where: { bucket, key, createdAt: { gte: since } } });
}

/** The oldest hit still inside the window: when it leaves, one more attempt is allowed. */
export async function oldestHit(prisma: Db, bucket: string, key: string, since: Date): Promise<Date | null> {
  const row = await prisma.rateLimitHit.findFirst({
    where: { bucket, key, createdAt: { gte: since } },
    orderBy: { createdAt: "asc" },
    select: { createdAt: true },
  });
  return row?.createdAt ?? null;
}

export async function recordHit(prisma: Db, bucket: string, key: string, at: Date): Promise<void> {
  await prisma.rateLimitHit.create({ data: { bucket, key, createdAt: at } });
}

/** Records a hit and returns its id, so the caller can take it back (a reservation). */
export async function reserveHit(prisma: Db, bucket: string, key: string, at: Date): Promise<number> {
  return (await prisma.rateLimitHit.create({ data: { bucket, key, createdAt: at }, select: { id: true } })).id;
}

/** Takes back one reserved hit. */
export async function releaseHit(prisma: Db, id: number): Promise<void> {
  await prisma.rateLimitHit.deleteMany({ where: { id } });
}

/** Forgets a key's hits (e.g. an account's failures after a successful sign-in). */
export async function clearHits(prisma: Db, bucket: string, key: string): Promise<void> {
  await prisma.rateLimitHit.deleteMany({ where: { bucket, key } });
}

/** Housekeeping: drops hits older than every window. */
export async function pruneHits(prisma: Db, before: Date): Promise<number> {
  return (await prisma.rateLimitHit.deleteMany({ where: { createdAt: { lt: before } } })).count;
}
