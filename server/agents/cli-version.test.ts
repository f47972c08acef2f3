// The preflight's CLI checks: a CLI a sandboxed agent cannot see (under /tmp, in
// a hidden folder) is passed over or refused with the reason, and `--version`
// output is judged against the preset's range (real strings from the CLIs).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claudeCodePreset } from "./claude-code.preset";
import { codexPreset } from "./codex.preset";
import { compareVersions, findSandboxedCli, judgeVersion } from "./cli-version";

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
function binDir(parent: string, name: string) {
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, "bin-"));
  made.push(dir);
  writeFileSync(join(dir, name), "#!/bin/sh\necho 1.0.0\n");
  chmodSync(join(dir, name), 0o755);
  return dir;
}

describe("a CLI where a sandboxed agent cannot see it", () => {
  it("refuses one under /tmp, naming why", () => {
    const tmp = binDir("/tmp", "claude");
    const found = findSandboxedCli("claude", tmp, null, { hidden: [] });
    expect(found).toEqual({
      found: false,
      reason: expect.stringContaining("is under /tmp, and a sandboxed agent has a private /tmp"),
    });
    expect(findSandboxedCli(join(tmp, "claude"), "", null, { hidden: [] }).found).toBe(false);
  });

  it("passes over one under /tmp or in a hidden folder for the next on PATH, and says so", () => {
    const tmp = binDir("/tmp", "claude");
    const hidden = binDir(join(homedir(), ".cache", "ralph-cli-version-test"), "claude");
    const visible = binDir(join(homedir(), ".cache", "ralph-cli-version-test"), "claude");
    const found = findSandboxedCli("claude", [tmp, hidden, visible].join(":"), null, { hidden: [hidden] });
    expect(found).toMatchObject({ found: true, path: join(visible, "claude") });
    expect(found.found === true && found.skipped.join(" ")).toContain("under /tmp");
  });

  it("accepts one inside the workspace, wherever the workspace is (it is mounted)", () => {
    const ws = binDir("/tmp", "agent.sh");
    expect(findSandboxedCli("./agent.sh", "", ws, { hidden: [] })).toMatchObject({ found: true });
  });
});

describe("--version against the preset's range", () => {
  it("reads the real CLIs' output", () => {
    expect(
      judgeVersion("claude", claudeCodePreset.versions!, { exitCode: 0, output: "2.1.332 (Claude Code)\n" }),
    ).toMatchObject({
      status: "ok",
      version: "2.1.332",
    });
    expect(judgeVersion("codex", codexPreset.versions!, { exitCode: 0, output: "codex-cli 0.171.0\n" })).toMatchObject({
      status: "ok",
      version: "0.171.0",
    });
  });

  it("warns on a newer version, refuses an older one, names the range", () => {
    const newer = judgeVersion("codex", codexPreset.versions!, { exitCode: 0, output: "codex-cli 0.172.1" });
    expect(newer).toMatchObject({ status: "warning" });
    expect(newer.message).toContain("newer than the verified 0.171.0");
    const older = judgeVersion("claude", claudeCodePreset.versions!, { exitCode: 0, output: "1.0.128 (Claude Code)" });
    expect(older).toMatchObject({ status: "problem" });
    expect(older.message).toMatch(/too old.*supported: 2\.0\.0 or newer, verified with 2\.1\.332/);
  });

  it("a CLI that cannot run in the sandbox (exit 127) is a problem with its words", () => {
    const r = judgeVersion("claude", claudeCodePreset.versions!, {
      exitCode: 127,
      output: "bash: claude: No such file or directory",
    });
    expect(r.status).toBe("problem");
    expect(r.message).toContain("exit 127");
    expect(r.message).toContain("No such file");
  });

  it("compares numerically", () => {
    expect(compareVersions("0.171.0", "0.44.0")).toBe(1);
    expect(compareVersions("2.1.9", "2.1.10")).toBe(-1);
    expect(compareVersions("2.1.0", "2.1")).toBe(0);
  });
});
