// The data folder's write probe against real file systems: a read-only tmpfs
// and a full one (mounted here because the tests run as root, which chmod
// would not stop), and an ordinary folder.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { probeStorage } from "./storage-health";

const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(join(tmpdir(), "ralph-mount-check-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir], { stdio: "pipe" });
    execFileSync("umount", [dir], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();

const mounted: string[] = [];
function tmpfs(options: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ralph-storage-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir], { stdio: "pipe" });
  mounted.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of mounted.splice(0)) {
    execFileSync("umount", [dir], { stdio: "pipe" });
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("probeStorage", async () => {
  it("an ordinary folder is ok and the probe leaves nothing behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-storage-ok-"));
    const health = await probeStorage(dir, 1);
    expect(health).toMatchObject({ ok: true, reason: null });
    expect(health.freeBytes).toBeGreaterThan(0);
    expect(readdirSync(dir)).toEqual([]);
    rmSync(dir, { recursive: true });
  });

  it.skipIf(!canMount)("a read-only data folder is not ok and says so", async () => {
    const health = await probeStorage(tmpfs("size=4m,ro"));
    expect(health.ok).toBe(false);
    expect(health.reason).toMatch(/read-only file system/);
  });

  it.skipIf(!canMount)("a full data folder is not ok: no space for the probe, or below the minimum", async () => {
    const dir = tmpfs("size=1m");
    // Fill it: the probe's write must fail with ENOSPC.
    try {
      writeFileSync(join(dir, "filler"), Buffer.alloc(2 * 1024 * 1024));
    } catch {
      // ENOSPC is the point.
    }
    const full = await probeStorage(dir, 1);
    expect(full.ok).toBe(false);
    expect(full.reason).toMatch(/full/);
    // Room to write, but under the safe minimum.
    const small = await probeStorage(tmpfs("size=4m"), 64 * 1024 * 1024);
    expect(small).toMatchObject({ ok: false });
    expect(small.reason).toMatch(/nearly full/);
  });
});
