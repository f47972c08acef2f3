/**
 * The sandbox runtime's host-side socat bridges outlive a server killed with
 * SIGKILL. A real process starts a real sandboxed command (the runtime starts
 * its bridges), is killed with SIGKILL, and its bridges are still listening;
 * the sweep kills them and removes their sockets, and leaves alone a socat it
 * did not record and the bridges of a server that is still alive.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inheritedEnv } from "../../env";
import { fixture, tempRoot } from "../fixtures/harness";
import { procStat } from "../process-identity";
import { sweepOrphanBridges } from "./bridge-sweep";

const tmp = tempRoot("ralph-bridges-");
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  // The stand-in servers' own bridges would outlive them too: swept like any others.
  await until(() => children.every((c) => c.pid === undefined || !aliveNow(c.pid)), 5_000).catch(() => undefined);
  sweepOrphanBridges(join(tmp.root, "data"));
  tmp.cleanup();
});

interface Recorded {
  owner: { pid: number };
  bridges: { pid: number; socket: string }[];
}

const aliveNow = (pid: number) => {
  const s = procStat(pid);
  return s !== null && s.state !== "Z";
};

async function until(check: () => boolean, ms: number): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A stand-in for the server: starts a sandboxed agent (so the runtime starts its bridges), then waits. */
async function startServer(data: string): Promise<{ parent: ChildProcess; record: Recorded }> {
  const workspace = join(tmp.root, `ws-${children.length}`);
  mkdirSync(workspace, { recursive: true });
  const parent = spawn(process.execPath, ["--import", "tsx", fixture("agent-parent.ts"), workspace, "on", data], {
    cwd: process.cwd(),
    env: { ...inheritedEnv(["PATH", "HOME"]), RALPH_DATA_DIR: data } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(parent);
  await new Promise<void>((resolve, reject) => {
    let out = "";
    parent.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("{")) resolve();
    });
    parent.once("exit", () => reject(new Error(`the parent exited early: ${out}`)));
  });
  const dir = join(data, "sandbox-bridges");
  const file = readdirSync(dir).find((f) => f.startsWith(`${parent.pid}-`))!;
  return { parent, record: JSON.parse(readFileSync(join(dir, file), "utf8")) as Recorded };
}

describe("sandbox bridges after SIGKILL", () => {
  it("survive their server's SIGKILL, and the sweep kills them, only them, and removes their sockets", async () => {
    const data = join(tmp.root, "data");
    const killedServer = await startServer(data);
    const liveServer = await startServer(data);
    const bridges = killedServer.record.bridges;
    expect(bridges.length).toBeGreaterThan(0);
    expect(bridges.every((b) => aliveNow(b.pid) && existsSync(b.socket))).toBe(true);
    // A socat nobody recorded, listening like a bridge: someone else's (the operator's own Claude Code).
    const foreignSocket = join(tmpdir(), `claude-http-${process.pid.toString(16).padStart(16, "0")}.sock`);
    const foreign = spawn("socat", [`UNIX-LISTEN:${foreignSocket},fork,reuseaddr`, "TCP:localhost:9"], {
      stdio: "ignore",
      detached: true,
    });
    children.push(foreign);
    await until(() => existsSync(foreignSocket), 5_000);

    killedServer.parent.kill("SIGKILL");
    await until(() => !aliveNow(killedServer.parent.pid!), 5_000);
    // What issue 28 saw: the bridge lives on without its server.
    await new Promise((r) => setTimeout(r, 300));
    expect(bridges.every((b) => aliveNow(b.pid))).toBe(true);

    const killed = sweepOrphanBridges(data);
    expect(killed).toEqual(expect.arrayContaining(bridges.map((b) => b.pid)));
    await until(() => bridges.every((b) => !aliveNow(b.pid)), 5_000);
    expect(bridges.some((b) => existsSync(b.socket))).toBe(false);
    // The foreign socat and the live server's bridges are untouched; a second sweep finds nothing.
    expect(aliveNow(foreign.pid!)).toBe(true);
    expect(liveServer.record.bridges.every((b) => aliveNow(b.pid))).toBe(true);
    expect(sweepOrphanBridges(data)).toEqual([]);
    expect(readdirSync(join(data, "sandbox-bridges"))).toEqual([
      expect.stringMatching(new RegExp(`^${liveServer.parent.pid}-`)),
    ]);
  }, 60_000);
});
