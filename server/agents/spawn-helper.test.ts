/**
 * The spawn helper against misbehaving agents: every process rule that holds
 * for a direct spawn (group kill on timeout, output cap, exit by signal,
 * stray descendants, stdin/env/cwd) holds through the helper, its buffering is
 * bounded when the server reads slowly, and the helper itself dying fails the
 * run in flight cleanly, kills its group, and the next spawn starts a new one.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { AgentError } from "./agent-error";
import { createCommandAgent } from "./command.executor";
import { commandAgentSchema } from "./command.schema";
import { request, tempRoot, testDeps } from "./fixtures/harness";
import { groupAlive, runProcess, type ProcessSpec } from "./process-group";
import { environHas, liveProcesses } from "./process-identity";
import { helperScript, spawnHelperPid } from "./spawn-helper";
import { readSpooledSpend } from "./spend-spool";
import { collectOutput } from "./spawner";

const tmp = tempRoot("ralph-spawn-helper-");
const strays: number[] = [];
afterAll(() => {
  for (const pid of strays) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  tmp.cleanup();
});

const PATH = "/usr/local/bin:/usr/bin:/bin";
let runs = 0;
const spec = (script: string, over: Partial<ProcessSpec> = {}): ProcessSpec & { marker: string } => {
  const marker = `RALPH_AGENT_ID=helper-test-${process.pid}-${++runs}`;
  return {
    argv: ["/bin/sh", "-c", script],
    cwd: tmp.root,
    env: { PATH, RALPH_AGENT_ID: marker.split("=")[1]! },
    timeoutMs: 0,
    killGraceMs: 300,
    maxOutputBytes: 1 << 20,
    marker,
    spawnVia: "helper",
    ...over,
  };
};
const withMarker = (marker: string) => liveProcesses().filter((p) => environHas(p.pid, marker));

async function until(check: () => boolean, ms: number) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const peakRss = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

describe("agents through the spawn helper", () => {
  it("runs the command with exactly its stdin, env and cwd, in its own group, not as the server's child", async () => {
    const outcome = await runProcess(
      spec('cat; echo "[$GREETING] $(pwd) ppid=$PPID"; echo "$HOME|$DATABASE_URL"', {
        env: { PATH, GREETING: "hello" },
        stdin: "from stdin\n",
      }),
    );
    expect(outcome.spawnError).toBeNull();
    expect(outcome.exitCode).toBe(0);
    const [first, second, third] = outcome.stdout.trim().split("\n");
    expect(first).toBe("from stdin");
    expect(second).toMatch(new RegExp(`^\\[hello\\] ${tmp.root} ppid=\\d+$`));
    expect(Number(second!.split("ppid=")[1])).not.toBe(process.pid);
    expect(third).toBe("|");
    expect(spawnHelperPid()).toBeDefined();
  });

  it("kills the whole group of an agent that hangs, grandchildren included, on timeout", async () => {
    const s = spec("trap '' TERM; sleep 60 & sleep 61 & wait", { timeoutMs: 400, killGraceMs: 300 });
    let pgid: number | undefined;
    const outcome = await runProcess({ ...s, onStart: (g) => (pgid = g.pgid) });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.killedWith).toBe("SIGKILL"); // the shell ignored SIGTERM
    expect(pgid).toBe(outcome.pid);
    await until(() => !groupAlive(pgid) && withMarker(s.marker).length === 0, 2000);
  });

  it("caps a flood, keeps reading to the last line, and buffers boundedly while the server is busy", async () => {
    await runProcess(spec("true")); // the helper is up
    const helper = spawnHelperPid()!;
    const before = peakRss(helper);
    const lines: string[] = [];
    const running = runProcess(
      spec("yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c 300000000; echo; echo last-line", {
        maxOutputBytes: 4096,
        onLine: (l) => {
          if (!l.startsWith("0123")) lines.push(l);
        },
      }),
    );
    // The server does not read for a while: the agent must wait, not the helper's memory grow.
    const busyUntil = Date.now() + 1500;
    while (Date.now() < busyUntil) {
      // busy
    }
    const outcome = await running;
    expect(outcome.exitCode).toBe(0);
    expect(outcome.truncated).toBe(true);
    expect(outcome.stdout.length).toBe(4096);
    expect(outcome.stdoutBytes).toBe(300_000_000 + "\nlast-line\n".length);
    expect(lines.at(-1)).toBe("last-line");
    // Unbounded, the helper would hold most of the flood (about 200 MB here); bounded, what grows is
    // garbage the collector has not yet taken back.
    const grewMb = (peakRss(helper) - before) / 1024;
    console.info(`spawn helper: peak RSS grew ${grewMb.toFixed(1)} MB over a 300 MB flood`);
    expect(grewMb).toBeLessThan(150);
  }, 60_000);

  it("reports a crash's exit code and stderr, and an exit by signal", async () => {
    const crashed = await runProcess(spec("echo 'boom: broken' >&2; exit 3"));
    expect(crashed.exitCode).toBe(3);
    expect(crashed.stderrTail).toBe("boom: broken\n");
    const signalled = await runProcess(spec("kill -SEGV $$"));
    expect(signalled.exitCode).toBeNull();
    expect(signalled.exitSignal).toBe("SIGSEGV");
  });

  it("kills what the agent left running in its group, and stops waiting for a descendant that left it", async () => {
    const s = spec("sleep 60 >/dev/null 2>&1 & echo $! ; setsid sleep 62 & echo started");
    const started = Date.now();
    const outcome = await runProcess(s);
    // The setsid'd sleep holds stdout open: the run ends after the grace period, not when it does.
    expect(Date.now() - started).toBeLessThan(s.killGraceMs + 1000 + 2000);
    expect(outcome.exitCode).toBe(0);
    const grandchild = Number(outcome.stdout.split("\n")[0]);
    const escaped = withMarker(s.marker).map((p) => p.pid);
    strays.push(...escaped);
    await until(() => !liveProcesses().some((p) => p.pid === grandchild), 2000);
    expect(groupAlive(outcome.pid)).toBe(false);
    // The next run through the same helper is unaffected.
    expect((await runProcess(spec("echo fine"))).stdout).toBe("fine\n");
  });

  it("fails the run in flight when the helper is killed, kills its group, and starts a new helper for the next", async () => {
    const s = spec("sleep 60 & sleep 61 & echo up; wait");
    let pgid: number | undefined;
    const running = runProcess({ ...s, onLine: () => undefined, onStart: (g) => (pgid = g.pgid) });
    await until(() => pgid !== undefined && withMarker(s.marker).length >= 3, 5000);
    const first = spawnHelperPid()!;
    process.kill(first, "SIGKILL");
    const outcome = await running;
    expect(outcome.lost).toMatch(/spawn helper died \(SIGKILL\)/);
    expect(outcome.spawnError).toBeNull();
    await until(() => withMarker(s.marker).length === 0, 2000);

    const next = await runProcess(spec("echo again"));
    expect(next.stdout).toBe("again\n");
    expect(spawnHelperPid()).toBeDefined();
    expect(spawnHelperPid()).not.toBe(first);
  });

  it("the command agent turns a lost helper into a retryable failure", async () => {
    const agent = createCommandAgent(
      commandAgentSchema.parse({ kind: "command", argv: ["/bin/sh", "-c", "echo working; sleep 60"] }),
      testDeps(tmp.root),
    );
    const lines: string[] = [];
    const running = agent.run(request({ onProgress: (e) => (e.kind === "output" ? lines.push(e.text) : undefined) }));
    await until(() => lines.includes("working"), 5000);
    process.kill(spawnHelperPid()!, "SIGKILL");
    const error = await running.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe("exit_nonzero");
    expect((error as AgentError).retryable).toBe(true);
    expect((error as AgentError).message).toMatch(/spawn helper died/);
  });

  it("collects a short command's output (git) and names a missing program", async () => {
    const ok = await collectOutput("/bin/sh", ["-c", "printf out; printf err >&2; exit 4"], {
      cwd: tmp.root,
      env: { PATH },
      maxBuffer: 1024,
      via: "helper",
    });
    expect(ok).toEqual({ code: 4, signal: null, stdout: "out", stderr: "err", error: null });
    const missing = await collectOutput("no-such-program-ralph", [], {
      cwd: tmp.root,
      env: { PATH },
      maxBuffer: 1024,
      via: "helper",
    });
    expect(missing.error).toMatch(/ENOENT/);
    const over = await collectOutput("/bin/sh", ["-c", "yes | head -c 100000"], {
      cwd: tmp.root,
      env: { PATH },
      maxBuffer: 1000,
      via: "helper",
    });
    expect(over.error).toMatch(/maxBuffer/);
  });

  it("is shared by a second copy of its module (next dev reloads modules), run ids included", async () => {
    const opts = { cwd: tmp.root, env: { PATH }, maxBuffer: 1024, via: "helper" as const };
    await collectOutput("/bin/sh", ["-c", "printf first"], opts);
    const pid = spawnHelperPid();
    vi.resetModules();
    const reloaded = await import("./spawner");
    const reloadedHelper = await import("./spawn-helper");
    // Two runs at once from the two copies: with separate run-id sequences both would be run 1.
    const [a, b] = await Promise.all([
      collectOutput("/bin/sh", ["-c", "sleep 0.2; printf old"], opts),
      reloaded.collectOutput("/bin/sh", ["-c", "sleep 0.1; printf new"], opts),
    ]);
    expect([a.stdout, b.stdout]).toEqual(["old", "new"]);
    expect(reloadedHelper.spawnHelperPid()).toBe(pid);
  });
});

describe("the spawn helper's spend spool (issue 32)", () => {
  it("writes the unconfirmed tails of spoolable runs, live and closed, when its server goes, and nothing else", async () => {
    // A helper of its own, with this test as its server: disconnecting is the server dying.
    const helper = spawn(process.execPath, [helperScript()], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    const closed = new Set<number>();
    const spawned = new Set<number>();
    helper.on("message", (m: { t: string; id: number }) => {
      if (m.t === "close") closed.add(m.id);
      if (m.t === "spawned") spawned.add(m.id);
    });
    const dir = join(tmp.root, "spool");
    const file = (name: string) => join(dir, "loop-1", name);
    const run = (id: number, script: string, spool?: string, call = 1) =>
      helper.send({
        t: "spawn",
        id,
        file: "/bin/sh",
        args: ["-c", script],
        cwd: tmp.root,
        env: { PATH },
        detached: true,
        lifeline: false,
        ...(spool ? { spool: { file: spool, meta: { preset: "generic", maxOutputBytes: 1 << 20, call } } } : {}),
      });
    const cost = (usd: number) => `echo '${JSON.stringify({ usage: { input: 10, output: 2, cache: 0 }, cost: usd })}'`;
    // Attempt 1.1: two calls (a retry), both closed; 2.1: closed, then confirmed; 3.1: a flood, still running.
    run(1, cost(0.5), file("1.1.json"), 1);
    run(2, `${cost(0.25)}`, file("1.1.json"), 2);
    run(3, cost(9), file("2.1.json"));
    run(4, `head -c 200000 /dev/zero | tr '\\0' x; echo; ${cost(0.125)}; sleep 30`, file("3.1.json"));
    run(5, cost(7)); // not spoolable
    await until(() => [1, 2, 3, 5].every((id) => closed.has(id)) && spawned.has(4), 5000);
    helper.send({ t: "unspool", file: file("2.1.json") });
    await new Promise((r) => setTimeout(r, 300)); // the flood's last line reaches the helper
    const gone = new Promise((r) => helper.once("exit", r));
    helper.disconnect();
    await gone;
    expect(readdirSync(join(dir, "loop-1")).sort()).toEqual(["1.1.json", "3.1.json"]);
    expect(readSpooledSpend(file("1.1.json"))).toEqual({ input: 20, output: 4, cache: 0, costUsd: 0.75 });
    // The flood is cut to its tail, which still holds the last report.
    const flood = JSON.parse(readFileSync(file("3.1.json"), "utf8")) as {
      runs: { live: boolean; cut: boolean; tail: string }[];
    };
    expect(flood.runs).toHaveLength(1);
    expect(flood.runs[0]).toMatchObject({ live: true, cut: true });
    expect(flood.runs[0]!.tail.length).toBeLessThanOrEqual(64 * 1024);
    expect(readSpooledSpend(file("3.1.json"))).toEqual({ input: 10, output: 2, cache: 0, costUsd: 0.125 });
  });
});
