/**
 * The sandbox runtime's host-side network bridges (`socat
 * UNIX-LISTEN:/tmp/claude-http-*.sock … TCP:localhost:<proxy>`), one or two
 * per server process, outlive a server killed with SIGKILL (re-parented to
 * PID 1, listening forever). Each server process records its own bridges
 * (pid, start time, socket) under the data folder once the runtime started
 * them; a later start, and a runtime that takes over a crashed loop, kill the
 * bridges of recorded owners that are gone. Only what was recorded and still
 * matches it (same pid, same start time, same socket on its command line) is
 * killed: never another process that reused the id, never a socat of anyone
 * else (another user, the operator's own Claude Code sandbox).
 */
import { readdirSync, readFileSync, rmSync, mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { getEnv } from "../../env";
import { bootId, liveProcesses, procStat } from "../process-identity";

interface Identity {
  pid: number;
  startTicks: number;
}

interface BridgeRecord {
  host: string;
  bootId: string | null;
  owner: Identity;
  bridges: (Identity & { socket: string })[];
}

const recordsDir = (dataDir: string) => join(dataDir, "sandbox-bridges");

const commandLine = (pid: number): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return [];
  }
};

/** The process is the one identified (a reused pid has another start time). */
const alive = (who: Identity) => procStat(who.pid)?.startTicks === who.startTicks;

const isBridgeFor = (pid: number, socket: string) => {
  const argv = commandLine(pid);
  return /(^|\/)socat$/.test(argv[0] ?? "") && argv.some((a) => a.startsWith(`UNIX-LISTEN:${socket},`));
};

/** Records this process's bridges (its own socat children listening on `sockets`). Never throws. */
export function recordOwnBridges(sockets: readonly string[], dataDir = getEnv().RALPH_DATA_DIR): void {
  try {
    const me = procStat(process.pid);
    if (!me) return;
    const bridges: BridgeRecord["bridges"] = [];
    for (const p of liveProcesses()) {
      if (p.ppid !== process.pid) continue;
      const socket = sockets.find((s) => isBridgeFor(p.pid, s));
      if (socket) bridges.push({ pid: p.pid, startTicks: p.startTicks, socket });
    }
    if (bridges.length === 0) return;
    const record: BridgeRecord = {
      host: hostname(),
      bootId: bootId(),
      owner: { pid: process.pid, startTicks: me.startTicks },
      bridges,
    };
    mkdirSync(recordsDir(dataDir), { recursive: true, mode: 0o700 });
    writeFileSync(join(recordsDir(dataDir), `${process.pid}-${me.startTicks}.json`), JSON.stringify(record), {
      mode: 0o600,
    });
  } catch {
    // Best effort: a missing record only means a bridge may outlive a crash, as before.
  }
}

/**
 * Kills the recorded bridges whose server is gone, on this machine since its
 * boot, and removes their sockets and records. Returns the pids killed.
 */
export function sweepOrphanBridges(dataDir = getEnv().RALPH_DATA_DIR): number[] {
  const killed: number[] = [];
  let files: string[];
  try {
    files = readdirSync(recordsDir(dataDir)).filter((f) => f.endsWith(".json"));
  } catch {
    return killed;
  }
  for (const file of files) {
    const path = join(recordsDir(dataDir), file);
    let record: BridgeRecord;
    try {
      record = JSON.parse(readFileSync(path, "utf8")) as BridgeRecord;
    } catch {
      rmSync(path, { force: true });
      continue;
    }
    // Another machine sharing the data folder: its processes are not ours to judge.
    if (record.host !== hostname()) continue;
    const sameBoot = record.bootId === bootId();
    if (sameBoot && alive(record.owner)) continue;
    for (const bridge of sameBoot ? record.bridges : []) {
      if (!alive(bridge) || !isBridgeFor(bridge.pid, bridge.socket)) continue;
      // Its forked per-connection children carry the same command line and die with their connection.
      const children = liveProcesses().filter(
        (p) => p.ppid === bridge.pid && p.startTicks >= bridge.startTicks && isBridgeFor(p.pid, bridge.socket),
      );
      for (const pid of [bridge.pid, ...children.map((c) => c.pid)]) {
        try {
          process.kill(pid, "SIGKILL");
          killed.push(pid);
        } catch {
          // already gone
        }
      }
    }
    for (const bridge of record.bridges) {
      if (/\/claude-(http|socks)-[0-9a-f]+\.sock$/.test(bridge.socket)) rmSync(bridge.socket, { force: true });
    }
    rmSync(path, { force: true });
  }
  return killed;
}
