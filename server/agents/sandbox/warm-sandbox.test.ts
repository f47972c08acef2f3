/**
 * Warm sandboxes for real (bubblewrap, nsenter, the seccomp helper): what a
 * fresh sandbox gave each command, a reused one gives too. A command that
 * leaves files in /tmp or /dev/shm, a process running in the background, or a
 * /dev it changed, hands none of it to the next; a replaced workspace gets a
 * sandbox bound to the new folder. (The hostile-agent guarantees themselves
 * run with warm sandboxes on and off in sandbox.test.ts.)
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createCommandAgent } from "../command.executor";
import { commandAgentSchema } from "../command.schema";
import { request, tempRoot, testDeps } from "../fixtures/harness";
import { hiddenPaths, type IsolationSettings } from "./isolation";
import { closeWarmSandboxes, warmStats } from "./warm-pool";
import { warmUnsupported } from "./warm-sandbox";

const tmp = tempRoot("ralph-warm-");
const data = join(tmp.root, "data");
afterAll(() => {
  closeWarmSandboxes();
  tmp.cleanup();
});

const isolation: IsolationSettings = {
  mode: "on",
  hidden: hiddenPaths(data, process.cwd()),
  homeRoot: join(data, "agent-homes"),
  allowHosts: [],
  warm: "on",
};
const workspaceOf = (loopId: string) => join(data, "workspaces", loopId);

async function run(loopId: string, script: string) {
  mkdirSync(workspaceOf(loopId), { recursive: true });
  writeFileSync(join(workspaceOf(loopId), "probe.sh"), script);
  const agent = createCommandAgent(
    commandAgentSchema.parse({ kind: "command", argv: ["/bin/sh", "./probe.sh"], timeoutSeconds: 60 }),
    testDeps(tmp.root, {}, { workspaceDir: workspaceOf, isolation }),
  );
  return agent.run(request({ loopId }));
}

describe.skipIf(warmUnsupported() !== null)("warm sandboxes", () => {
  it("the second command enters the first one's sandbox, and finds nothing it left in /tmp or /dev/shm", async () => {
    const before = { ...warmStats };
    const first = await run(
      "scratch",
      `echo left > /tmp/left.txt; mkdir -p /tmp/d/e; echo x > /tmp/d/e/f; echo s > /dev/shm/seg; echo "tmpdir=$TMPDIR"; echo done`,
    );
    expect(first.output).toContain("tmpdir=/tmp");
    const second = await run(
      "scratch",
      `ls -A /tmp /dev/shm; test -e /tmp/left.txt && echo FOUND-LEFT; test -e /tmp/d && echo FOUND-DIR; echo "pwd=$(pwd)"`,
    );
    expect(warmStats.started - before.started).toBe(1);
    expect(warmStats.reused - before.reused).toBe(1);
    expect(second.output).not.toContain("left.txt");
    expect(second.output).not.toContain("FOUND");
    expect(second.output).not.toContain("seg");
    expect(second.output).toContain(`pwd=${workspaceOf("scratch")}`);
  });

  it("paths relative to the working directory resolve inside the sandbox (the hidden data folder stays hidden)", async () => {
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, "secret-key"), "DATA-SECRET-77c1");
    const first = await run("relative", `cat ../../secret-key 2>&1; ls ../.. 2>&1; echo end`);
    const second = await run("relative", `cat ../../secret-key 2>&1; cat "${data}/secret-key" 2>&1; echo end`);
    expect(first.output + second.output).not.toContain("DATA-SECRET-77c1");
  });

  it("a process a command left running in the background does not outlive it", async () => {
    const ws = workspaceOf("daemon");
    await run(
      "daemon",
      `setsid sh -c 'while :; do date +%s%N > ./alive; sleep 0.05; done' </dev/null >/dev/null 2>&1 & sleep 0.3; echo started`,
    );
    expect(existsSync(join(ws, "alive"))).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const stamp = readFileSync(join(ws, "alive"), "utf8");
    const mtime = statSync(join(ws, "alive")).mtimeMs;
    await new Promise((r) => setTimeout(r, 500));
    expect(readFileSync(join(ws, "alive"), "utf8")).toBe(stamp);
    expect(statSync(join(ws, "alive")).mtimeMs).toBe(mtime);
  });

  it("a command that changes /dev gets its sandbox closed; the next one starts a fresh sandbox", async () => {
    const before = { ...warmStats };
    await run("devtamper", `ln -s /etc/passwd /dev/planted 2>&1; echo rc=$?`);
    const next = await run("devtamper", `ls /dev`);
    expect(warmStats.discarded - before.discarded).toBe(1);
    expect(warmStats.started - before.started).toBe(2);
    expect(next.output).not.toContain("planted");
  });

  it("a workspace removed and made again gets a sandbox bound to the new folder", async () => {
    await run("replaced", `echo one > ./one.txt`);
    rmSync(workspaceOf("replaced"), { recursive: true, force: true });
    const again = await run("replaced", `echo two > ./two.txt; ls`);
    expect(again.output).toContain("two.txt");
    expect(existsSync(join(workspaceOf("replaced"), "two.txt"))).toBe(true);
  });
});
