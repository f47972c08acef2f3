// What the alarms are judged on, read for a set of loops at once: iterations
// within each loop's runaway window, spend within the last hour, and the last
// sign of life of the agent in flight (its newest live row).
import type { Db } from "./prisma-client";
import { latestLiveEvents } from "./live-output.repo";

const HOUR_MS = 3_600_000;

export interface AlarmSignalRow {
  iterationsInWindow: number;
  spendLastHourUsd: number;
  lastAgentSignalAt: number | null;
}

export async function alarmSignals(
  db: Db,
  loops: { id: string; windowMs: number }[],
  now: number,
): Promise<Map<string, AlarmSignalRow>> {
  const result = new Map<string, AlarmSignalRow>(
    loops.map((l) => [l.id, { iterationsInWindow: 0, spendLastHourUsd: 0, lastAgentSignalAt: null }]),
  );
  if (loops.length === 0) return result;
  // Loops sharing a window (nearly all: the default) share one count.
  const byWindow = new Map<number, string[]>();
  for (const l of loops) byWindow.set(l.windowMs, [...(byWindow.get(l.windowMs) ?? []), l.id]);
  const ids = loops.map((l) => l.id);
  const [counts, spend, live] = await Promise.all([
    Promise.all(
      [...byWindow].map(([windowMs, loopIds]) =>
        db.iteration.groupBy({
          by: ["loopId"],
          where: { loopId: { in: loopIds }, finishedAt: { gte: new Date(now - windowMs) } },
          _count: { _all: true },
        }),
      ),
    ),
    db.iteration.groupBy({
      by: ["loopId"],
      where: { loopId: { in: ids }, finishedAt: { gte: new Date(now - HOUR_MS) } },
      _sum: { costUsd: true },
    }),
    latestLiveEvents(db, ids),
  ]);
  for (const row of counts.flat()) result.get(row.loopId)!.iterationsInWindow = row._count._all;
  for (const row of spend) result.get(row.loopId)!.spendLastHourUsd = row._sum.costUsd ?? 0;
  for (const row of live) {
    const p = (row.payload ?? {}) as { heartbeatAt?: number | null; outputAt?: number | null };
    const at = Math.max(p.heartbeatAt ?? 0, p.outputAt ?? 0);
    if (row.loopId && at > 0) result.get(row.loopId)!.lastAgentSignalAt = at;
  }
  return result;
}
