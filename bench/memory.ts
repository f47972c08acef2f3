// Resident memory of one runtime process holding N live loops, alone in its
// own process so one figure does not carry another's heap:
// `npm run bench` runs it bundled (plain node, no tsx loader thread), with the runtime's node flags.
// By hand: `tsx bench/memory.ts <loops> [seconds] [--postgresql] [--slots N] [--heap <file>]` prints one JSON
// line; `--slots 0` runs every slice at once (no RALPH_APP_CONCURRENCY limit).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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

/**
 * Resident memory by kind of mapping (Linux), for what process.memoryUsage cannot name: files
 * (node's own code, native addons), WebAssembly memories (Prisma's query compiler; V8 reserves
 * several GB of address space for each), the C heap and other anonymous memory (V8's heap among it).
 */
function residentByMapping() {
  let text: string;
  try {
    text = readFileSync("/proc/self/smaps", "utf8");
  } catch {
    return undefined;
  }
  const sums = { files: 0, wasm: 0, anonymous: 0 };
  let bucket: keyof typeof sums = "anonymous";
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const size = (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 2 ** 30;
      const path = head[3] ?? "";
      bucket = path.startsWith("/") ? "files" : size >= 4 ? "wasm" : "anonymous";
    } else if (line.startsWith("Rss:")) sums[bucket] += Number(line.split(/\s+/)[1]) / 1024;
  }
  return { files: Math.round(sums.files), wasm: Math.round(sums.wasm), anonymous: Math.round(sums.anonymous) };
}

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
  let mappings: ReturnType<typeof residentByMapping> | undefined;
  const r = await measureLiveRss(
    db,
    ports,
    loops,
    seconds,
    () => {
      mappings = residentByMapping();
      if (heapAt) writeHeapSnapshot(heapAt);
    },
    slots,
  );
  console.log(JSON.stringify({ kind, slots, ...r, residentMb: mappings }));
} finally {
  await db.close();
  await temp.drop();
  rmSync(workspaces, { recursive: true, force: true });
}
process.exit(0);
