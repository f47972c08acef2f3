// Resident memory of one runtime process holding N live loops, alone in its
// own process so one figure does not carry another's heap:
// `tsx bench/memory.ts <loops> [seconds] [--postgresql] [--slots N] [--heap <file>]` prints one JSON
// line; `--slots 0` runs every slice at once (no RALPH_APP_CONCURRENCY limit).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { createTempDatabase } from "../test/temp-database";
import { getEnv } from "../server/env";
import { createPorts } from "../server/agents/registry";
import { envSecretResolver } from "../server/agents/secret-resolver";
import { measureLiveRss } from "./runtime-bench";

const args = process.argv.slice(2);
const loops = Number(args[0] ?? 100);
const seconds = Number(args[1] ?? 8);
const heapAt = args.includes("--heap") ? args[args.indexOf("--heap") + 1] : undefined;
const kind = args.includes("--postgresql") ? "postgresql" : "sqlite";
const slots = args.includes("--slots") ? Number(args[args.indexOf("--slots") + 1]) : 50;

const temp = await createTempDatabase(kind, getEnv().RALPH_PG_ADMIN_URL, "bench");
await migrate(temp.target, process.cwd());
const db = openDatabase(temp.target, { poolSize: 20 });
const workspaces = mkdtempSync(join(tmpdir(), "ralph-bench-mem-"));
try {
  const ports = (loop: { id: string; config: unknown }) =>
    createPorts(
      loop.config as Parameters<typeof createPorts>[0],
      { workspaceDir: (id) => join(workspaces, id), secrets: envSecretResolver },
      loop.id,
    );
  const r = await measureLiveRss(
    db,
    ports,
    loops,
    seconds,
    heapAt ? () => writeHeapSnapshot(heapAt) : undefined,
    slots,
  );
  console.log(JSON.stringify({ kind, slots, ...r }));
} finally {
  await db.close();
  await temp.drop();
  rmSync(workspaces, { recursive: true, force: true });
}
process.exit(0);
