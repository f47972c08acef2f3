// Resident memory of one runtime process holding N live loops, alone in its
// own process so one figure does not carry another's heap:
// `npm run bench` runs it bundled (plain node, no tsx loader thread), with the runtime's node flags
// and malloc settings (scripts/lib/runtime-node-flags.mjs).
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
 * (node's own code, native addons), glibc malloc (the main arena, `[heap]`, and the per-thread
 * arenas, 64 MB-aligned regions of at most 64 MB: V8's compilation and GC scratch memory, the
 * drivers' native allocations, freed blocks the allocator keeps), and the other anonymous memory
 * (V8's heap pages, WebAssembly memories, thread stacks).
 */
function residentByMapping() {
  let text: string;
  try {
    text = readFileSync("/proc/self/smaps", "utf8");
  } catch {
    return undefined;
  }
  const sums = { files: 0, malloc: 0, anonymous: 0 };
  let bucket: keyof typeof sums = "anonymous";
  const arena = 64 * 2 ** 20;
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const start = parseInt(head[1]!, 16);
      const size = parseInt(head[2]!, 16) - start;
      const path = head[3] ?? "";
      bucket = path.startsWith("/")
        ? "files"
        : path === "[heap]" || (start % arena === 0 && size <= arena)
          ? "malloc"
          : "anonymous";
    } else if (line.startsWith("Rss:")) sums[bucket] += Number(line.split(/\s+/)[1]) / 1024;
  }
  return { files: Math.round(sums.files), malloc: Math.round(sums.malloc), anonymous: Math.round(sums.anonymous) };
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
