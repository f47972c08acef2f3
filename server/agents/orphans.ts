/**
 * After a crash: the agent the crashed runtime started may still be running
 * (a worker that froze rather than died, or a platform without the watcher's
 * guarantees). Before the same iteration runs again, whatever is left of that
 * agent is killed, on the same machine only, and only what is provably it:
 * the group leader with its recorded start time, or processes carrying the
 * run's marker variable.
 */
import { environHas, hasProc, liveProcesses, procStat, sameMachine, type ProcessGroupRecord } from "./process-identity";

export interface ReapResult {
  /** elsewhere: recorded on another machine (or before a reboot); nothing here can be its process. */
  outcome: "elsewhere" | "gone" | "killed";
  killed: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tryKill(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** The live processes that belong to the recorded run. */
export function processesOf(record: ProcessGroupRecord): number[] {
  const all = liveProcesses();
  const leader = procStat(record.pgid);
  const leaderIsOurs =
    leader !== null && leader.state !== "Z" && record.startTicks !== null && leader.startTicks === record.startTicks;
  const ours = new Set<number>();
  for (const p of all) {
    if (p.pid === process.pid) continue;
    // Everything of the run started after its leader: older processes are not read at all.
    if (record.startTicks !== null && p.startTicks < record.startTicks) continue;
    if (p.pgrp === record.pgid && leaderIsOurs) ours.add(p.pid);
    else if (record.marker && environHas(p.pid, record.marker)) ours.add(p.pid);
  }
  return [...ours];
}

export async function reapAgentGroup(record: ProcessGroupRecord, timeoutMs = 5000): Promise<ReapResult> {
  if (!sameMachine(record)) return { outcome: "elsewhere", killed: [] };
  if (!hasProc()) {
    // No way to tell our group from a reused id: kill only a group that still exists, as recorded.
    return tryKill(-record.pgid, "SIGKILL")
      ? { outcome: "killed", killed: [record.pgid] }
      : { outcome: "gone", killed: [] };
  }
  const victims = processesOf(record);
  if (victims.length === 0) return { outcome: "gone", killed: [] };
  if (victims.includes(record.pgid)) tryKill(-record.pgid, "SIGKILL");
  for (const pid of victims) tryKill(pid, "SIGKILL");
  const until = Date.now() + timeoutMs;
  while (processesOf(record).length > 0 && Date.now() < until) await sleep(20);
  return { outcome: "killed", killed: victims };
}
