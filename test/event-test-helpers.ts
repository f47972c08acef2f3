// Shared by the live-event tests.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { DatabaseTarget } from "../server/db/database-target";
import { ROOT } from "./db-providers";

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function until(check: () => boolean, timeoutMs = 5_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(5);
  }
}

/** Appends `count` events from a separate Node process, the way a worker would. */
export async function runChildEventWriter(target: DatabaseTarget, count: number) {
  const dir = mkdtempSync(join(tmpdir(), "ralph-child-"));
  const script = join(dir, "write.mts");
  const mod = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, path)).href);
  writeFileSync(
    script,
    `import { openDatabase } from ${mod("server/db/client.ts")};
import { appendEvents } from ${mod("server/db/events.repo.ts")};
import { notifyEventsWritten } from ${mod("server/events/event-wakeups.ts")};
const db = openDatabase(JSON.parse(process.argv[2]));
for (let i = 0; i < ${count}; i++) {
  await appendEvents(db.prisma, [{ loopId: null, type: "from.child" }]);
  await notifyEventsWritten(db);
}
await db.close();
`,
  );
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(target)], {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", reject);
      child.on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`child writer exited ${code}: ${stderr}`)),
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
