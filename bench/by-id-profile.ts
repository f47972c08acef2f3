// Where `loops.byId` spends its time on the bench's long loop: each query it makes, timed alone.
// `tsx bench/by-id-profile.ts sqlite|postgresql [--small]`.
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { createTempDatabase } from "../test/temp-database";
import { getEnv } from "../server/env";
import { seed, LONG_LOOP, appendLongIteration } from "./dashboard-bench";
import { timeParts } from "./time-parts";
import { getLoopDetail, MARKER_EVENT_TYPES } from "../server/loops/loop-detail.service";
import { loopById } from "../server/db/loops.repo";
import { forkLineage } from "../server/loops/fork-lineage";
import { chartSeries, clearChartSeriesCache } from "../server/loops/chart-series";
import { pendingControlRequests } from "../server/db/controls.repo";
import { recentApprovals } from "../server/db/approvals.repo";
import { listEvents } from "../server/db/events.repo";
import { currentAlarms } from "../server/loops/loop-alarms.service";
import { iterationNumberRange, iterationSpans, iterationSeriesAt } from "../server/db/iterations.repo";

const kind = process.argv[2] as "sqlite" | "postgresql";
const small = process.argv.includes("--small");
// `--keep`: leave the seeded database and print its target; `--reuse=<json target>`: time it again.
const reuse = process.argv.find((a) => a.startsWith("--reuse="))?.slice(8);
const keep = process.argv.includes("--keep");
const temp = reuse
  ? { target: JSON.parse(reuse) as Parameters<typeof openDatabase>[0], drop: async () => undefined }
  : await createTempDatabase(kind, getEnv().RALPH_PG_ADMIN_URL, "prof");
const db = openDatabase(temp.target, { poolSize: 20 });
try {
  if (!reuse) {
    await migrate(temp.target, process.cwd());
    const t0 = performance.now();
    await seed(db, small ? 100 : 10_000, 20_000, small ? 10_000 : 1_000_000);
    console.log(`seeded ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    if (keep) console.log(`--reuse='${JSON.stringify(temp.target)}'`);
  }
  const now = Date.now();
  const loop = (await loopById(db.prisma, LONG_LOOP))!;
  const lineage = await forkLineage(db.prisma, loop);
  const range = (await iterationNumberRange(db.prisma, lineage.segments))!;
  const size = Math.ceil((range.last - range.first + 1) / 133);
  const spans = await iterationSpans(db.prisma, lineage.segments, size, range.first);
  let last = range.last;
  // Parts timed after an untimed step of their own: the loop gains an iteration before each call.
  const gaining = (fn: () => Promise<unknown>) => ({ before: () => appendLongIteration(db, ++last), run: fn });
  const parts: Record<string, (() => Promise<unknown>) | ReturnType<typeof gaining>> = {
    loopById: () => loopById(db.prisma, LONG_LOOP),
    forkLineage: () => forkLineage(db.prisma, loop),
    checkpoint: () => db.loopStore.currentCheckpoint(LONG_LOOP),
    chartSeries: () => chartSeries(db, lineage.segments),
    "chartSeries uncached": () => (clearChartSeriesCache(db), chartSeries(db, lineage.segments)),
    "chartSeries gaining": gaining(() => chartSeries(db, lineage.segments)),
    "  range": () => iterationNumberRange(db.prisma, lineage.segments),
    "  spans": () => iterationSpans(db.prisma, lineage.segments, size, range.first),
    "  seriesAt": () =>
      iterationSeriesAt(
        db.prisma,
        lineage.segments,
        spans.map((s) => s.to),
      ),
    controls: () => pendingControlRequests(db.prisma, LONG_LOOP),
    approvals: () => recentApprovals(db.prisma, LONG_LOOP, 20),
    events: () => listEvents(db.prisma, LONG_LOOP, { limit: 500, types: MARKER_EVENT_TYPES }),
    alarms: () => currentAlarms(db.prisma, [loop], now),
    "whole byId": () => getLoopDetail(db, LONG_LOOP, now, { canOperate: true }),
    "byId uncached": () => (clearChartSeriesCache(db), getLoopDetail(db, LONG_LOOP, now, { canOperate: true })),
    "byId gaining": gaining(() => getLoopDetail(db, LONG_LOOP, now, { canOperate: true })),
    "byId+JSON": async () => JSON.stringify(await getLoopDetail(db, LONG_LOOP, now, { canOperate: true })),
  };
  await timeParts(parts, 12);
} finally {
  await db.close();
  if (!keep) await temp.drop();
}
