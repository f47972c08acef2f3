// The health report with a data folder that cannot take writes: a read-only
// tmpfs (a mount, because the tests run as root and chmod would not stop root).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { describeEachProvider, ROOT } from "../../test/db-providers";
import { getHealth } from "./health.service";
import { storageHealth } from "./storage-health";

const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync("mount", ["--version"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
})();

describeEachProvider("health and the data folder", ({ db }) => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs.splice(0)) {
      execFileSync("umount", [dir], { stdio: "pipe" });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a writable data folder is reported ok", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-health-ok-"));
    const health = await getHealth(db(), ROOT, dir);
    expect(health.storage).toMatchObject({ ok: true, reason: null });
    // (Under heavy load the database check may time out; only the data folder matters here.)
    expect(health.error ?? "").not.toMatch(/data folder/);
    rmSync(dir, { recursive: true });
  });

  it.skipIf(!canMount)("a read-only data folder: not ok with the reason, overall degraded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-health-ro-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m,ro", "tmpfs", dir], { stdio: "pipe" });
    dirs.push(dir);
    // The first probe of a folder may outlast a report's wait on a loaded machine: let it finish.
    await storageHealth(dir, 10_000);
    const health = await getHealth(db(), ROOT, dir);
    expect(health.status).toBe("degraded");
    expect(health.storage.ok).toBe(false);
    expect(health.storage.reason).toMatch(/read-only file system/);
    expect(health.error).toMatch(/read-only file system/);
  });
});
