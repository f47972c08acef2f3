// Where `loops.list`'s time goes at 10,000 loops / 1,000,000 iterations: each query it makes, timed alone.
// `tsx bench/list-profile.ts sqlite|postgresql`.
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { createTempDatabase } from "../test/temp-database";
import { getEnv } from "../server/env";
import { seed } from "./dashboard-bench";
import { timeParts } from "./time-parts";
import { listLoopSummaries, TRAIL_LENGTH } from "../server/loops/loop-list.service";
import { countLoops, listLoops, loopsWithPendingControl, type LoopListQuery } from "../server/db/loops.repo";
import { recentIterations } from "../server/db/iterations.repo";
import { liveSummaries } from "../server/loops/live-iteration.service";
import { currentAlarms } from "../server/loops/loop-alarms.service";

const kind = process.argv[2] as "sqlite" | "postgresql";
const temp = await createTempDatabase(kind, getEnv().RALPH_PG_ADMIN_URL, "prof");
const db = openDatabase(temp.target, { poolSize: 20 });
try {
  await migrate(temp.target, process.cwd());
  await seed(db, 10_000, 0, 1_000_000);
  const query: LoopListQuery = { sort: "updated", direction: "desc", limit: 25 };
  const page = await listLoops(db.prisma, query);
  const ids = page.items.map((l) => l.id);
  const running = page.items.filter((l) => l.inflightIteration !== null).map((l) => l.id);
  const now = Date.now();
  const parts: Record<string, () => Promise<unknown>> = {
    listLoops: () => listLoops(db.prisma, query),
    countLoops: () => countLoops(db.prisma, query),
    pendingControl: () => loopsWithPendingControl(db.prisma, ids, ["interrupt", "kill"]),
    recentIterations: () => recentIterations(db.prisma, page.items, TRAIL_LENGTH),
    liveSummaries: () => liveSummaries(db, running),
    alarms: () => currentAlarms(db.prisma, page.items, now),
    "whole list": () => listLoopSummaries(db, query),
  };
  await timeParts(parts, 16);
} finally {
  await db.close();
  await temp.drop();
}
