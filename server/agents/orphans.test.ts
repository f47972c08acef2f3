/**
 * No orphans: a command agent (and everything it started) dies when the
 * process that started it dies, even by SIGKILL, with or without the
 * sandbox; and after a crash the reaper kills what is provably the recorded
 * agent, and nothing else.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { environHas, liveProcesses, type ProcessGroupRecord } from "./process-identity";
import { processesOf, reapAgentGroup } from "./orphans";
import { runProcess } from "./process-group";
import { inheritedEnv } from "../env";
import { fixture, tempRoot } from "./fixtures/harness";
import { sweepOrphanBridges } from "./sandbox/bridge-sweep";

const tmp = tempRoot("ralph-orphans-");
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  // The stand-in servers' sandbox network bridges outlive their SIGKILL: swept, as a restarted server would.
  const gone = (pid: number | undefined) => pid === undefined || !existsSync(`/proc/${pid}`);
  for (let i = 0; i < 100 && !children.every((c) => gone(c.pid)); i++) await new Promise((r) => setTimeout(r, 50));
  sweepOrphanBridges(join(tmp.root, "data"));
  tmp.cleanup();
});

const withMarker = (marker: string) =>
  liveProcesses()
    .filter((p) => environHas(p.pid, marker))
    .map((p) => p.pid);

async function startParent(sandbox: "on" | "off"): Promise<{ parent: ChildProcess; group: ProcessGroupRecord }> {
  const workspace = join(tmp.root, `ws-${sandbox}`);
  mkdirSync(workspace, { recursive: true });
  const parent = spawn(
    process.execPath,
    ["--import", "tsx", fixture("agent-parent.ts"), workspace, sandbox, join(tmp.root, "data")],
    {
      cwd: process.cwd(),
      env: {
        ...inheritedEnv(["PATH", "HOME"]),
        RALPH_DATA_DIR: join(tmp.root, "data"),
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  children.push(parent);
  const group = await new Promise<ProcessGroupRecord>((resolve, reject) => {
    let out = "";
    parent.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line) as ProcessGroupRecord);
    });
    parent.once("exit", () => reject(new Error(`the parent exited early: ${out}`)));
  });
  return { parent, group };
}

async function until(check: () => boolean, ms: number): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

describe("no orphans", () => {
  it.each(["off", "on"] as const)(
    "an agent (sandbox %s) dies with the process that started it, even on SIGKILL",
    async (sandbox) => {
      const { parent, group } = await startParent(sandbox);
      // The agent, its shell and both sleeps run (inside the sandbox: bubblewrap's processes too).
      await until(() => withMarker(group.marker!).length >= 3, 20_000);
      expect(processesOf(group).length).toBeGreaterThanOrEqual(3);
      parent.kill("SIGKILL");
      const gone = await until(() => withMarker(group.marker!).length === 0, 2_000);
      console.info(`sandbox ${sandbox}: agent processes gone ${gone} ms after SIGKILL of their parent`);
    },
    30_000,
  );

  it("the reaper kills a recorded agent that is still running, and only it", async () => {
    const marker = `RALPH_AGENT_ID=reap-${process.pid}`;
    let group: ProcessGroupRecord | null = null;
    const run = runProcess({
      argv: ["/bin/sh", "-c", "sleep 60 & sleep 61; wait"],
      cwd: tmp.root,
      env: { PATH: "/usr/bin:/bin", RALPH_AGENT_ID: `reap-${process.pid}` },
      timeoutMs: 0,
      killGraceMs: 100,
      maxOutputBytes: 1024,
      marker,
      onStart: (g) => (group = g),
    });
    await until(() => group !== null && withMarker(marker).length >= 3, 5_000);
    const record = group!;

    // Recorded on another machine, or before a reboot: nothing here is it.
    expect((await reapAgentGroup({ ...record, host: "elsewhere" })).outcome).toBe("elsewhere");
    expect((await reapAgentGroup({ ...record, bootId: "another-boot" })).outcome).toBe("elsewhere");
    // A reused group id (another start time) without the marker: not ours, left alone.
    expect((await reapAgentGroup({ ...record, startTicks: 1, marker: null })).outcome).toBe("gone");
    expect(withMarker(marker).length).toBeGreaterThanOrEqual(3);

    const reaped = await reapAgentGroup(record);
    expect(reaped.outcome).toBe("killed");
    expect(withMarker(marker)).toEqual([]);
    const outcome = await run;
    expect(outcome.exitSignal).toBe("SIGKILL");
    expect((await reapAgentGroup(record)).outcome).toBe("gone");
  }, 30_000);
});
