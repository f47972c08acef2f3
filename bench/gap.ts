// npm run bench:gap: the per-iteration gap alone: where it goes (in this
// process, SQLite) and what it is through the built app under `next start`.
// `-- --profile <dir>` writes a CPU profile of the server into <dir>; `-- --probe`
// also times the server's phases of every gap and prints the slowest 1% against
// the median (bench/gap-tail.ts).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { createTempDatabase } from "../test/temp-database";
import { getEnv } from "../server/env";
import { measureBreakdown } from "./iteration-breakdown";
import { measureEndToEndGap, profilesIn } from "./e2e-gap";
import { printGap } from "./gap-report";
import { gapPhases, printTail } from "./gap-tail";
import { measureStepCommit, printStepCommit } from "./step-commit-bench";

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const iterations = Number(flag("--iterations") ?? 1000);
const profileDir = flag("--profile");
const root = process.cwd();

if (!args.includes("--e2e-only")) {
  console.error("… per-iteration breakdown in process (SQLite)");
  const temp = await createTempDatabase("sqlite", getEnv().RALPH_PG_ADMIN_URL, "bench");
  await migrate(temp.target, root);
  const db = openDatabase(temp.target);
  try {
    const b = await measureBreakdown(db, root, Math.min(iterations, 300));
    printGap.breakdown(b);
    printStepCommit(await measureStepCommit(db, temp.target, { loops: 50 }));
  } finally {
    await db.close();
    await temp.drop();
  }
}
if (!args.includes("--breakdown-only")) {
  console.error(`… end-to-end gap through next start (${iterations} iterations)`);
  const port = Number(flag("--port") ?? 3291);
  const probeFile = args.includes("--probe")
    ? join(mkdtempSync(join(tmpdir(), "ralph-gap-probe-")), "probe.jsonl")
    : null;
  const gap = await measureEndToEndGap(root, {
    iterations,
    port,
    ...(profileDir ? { profileDir } : {}),
    ...(probeFile ? { probeFile } : {}),
  });
  printGap.endToEnd(gap);
  if (gap && probeFile) printTail(gapPhases(gap.calls, probeFile), probeFile);
  if (profileDir) console.log(`CPU profiles: ${profilesIn(profileDir).join(", ")}`);
}
process.exit(0);
