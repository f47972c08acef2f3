// Health answers within a second whatever the disk does (issue 32): the data
// folder's write probe used to run on the main thread, so a stalled write (a
// hung mount, a disk busy for seconds) stalled the whole server and the report
// with it. Here the stall is real: the probe's file is a FIFO nobody reads, so
// opening it for writing blocks until a reader comes (3 s later).
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { describeEachProvider, ROOT } from "../../test/db-providers";
import { getHealth } from "./health.service";

describeEachProvider("health with a stalled data folder", ({ db }) => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("answers within a second, saying the data folder is not taking writes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-health-stall-"));
    dirs.push(dir);
    const fifo = join(dir, `.health-probe-${process.pid}`);
    execFileSync("mkfifo", [fifo]);
    // A server that has been up: its database and sandbox checks have answered once (cold-start reads aside).
    const warm = mkdtempSync(join(tmpdir(), "ralph-health-warm-"));
    dirs.push(warm);
    await getHealth(db(), ROOT, warm);
    // The reader that ends the stall: without it a blocked main thread would never come back.
    const reader = spawn("sh", ["-c", `sleep 3; cat "${fifo}" > /dev/null`], { stdio: "ignore" });
    const ended = new Promise((resolve) => reader.on("exit", resolve));
    const started = Date.now();
    const health = await getHealth(db(), ROOT, dir);
    const tookMs = Date.now() - started;
    expect(tookMs).toBeLessThan(1_000);
    expect(health.status).toBe("degraded");
    expect(health.storage.ok).toBe(false);
    expect(health.storage.reason).toMatch(/has not finished a small write/);
    expect(health.error).toMatch(/has not finished a small write/);
    await ended;
  }, 30_000);
});
