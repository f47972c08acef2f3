/**
 * Who a process group is, in a form that survives a crash of the server:
 * stored on the in-flight iteration, it lets the next owner find and kill an
 * agent the crashed server left behind, and only that agent. A group id
 * alone is not enough (ids are reused), so the leader's start time, the boot
 * and the host are kept, plus a marker variable every process of the run
 * carries in its environment.
 */
import { readdirSync, readFileSync } from "node:fs";
import { hostname } from "node:os";

export interface ProcessGroupRecord {
  pgid: number;
  host: string;
  /** /proc/sys/kernel/random/boot_id; null where there is no /proc. */
  bootId: string | null;
  /** The leader's start time in clock ticks since boot (/proc/<pid>/stat field 22). */
  startTicks: number | null;
  /** `NAME=value` present in the environment of every process of this run. */
  marker: string | null;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

let cachedBootId: string | null | undefined;
export function bootId(): string | null {
  cachedBootId ??= read("/proc/sys/kernel/random/boot_id")?.trim() ?? null;
  return cachedBootId;
}

export interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
  startTicks: number;
}

/** Parses /proc/<pid>/stat; the command name may hold spaces and parentheses. */
export function procStat(pid: number): ProcStat | null {
  const text = read(`/proc/${pid}/stat`);
  if (!text) return null;
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state) of proc(5).
  return {
    pid,
    state: fields[0]!,
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    startTicks: Number(fields[19]),
  };
}

export const hasProc = () => read("/proc/self/stat") !== null;

/** Every live (not zombie) process visible in /proc. */
export function liveProcesses(): ProcStat[] {
  const out: ProcStat[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const name of entries) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const stat = procStat(Number(name));
    if (stat && stat.state !== "Z" && stat.state !== "X") out.push(stat);
  }
  return out;
}

/** The process's environment contains exactly `entry` (NAME=value). */
export function environHas(pid: number, entry: string): boolean {
  const environ = read(`/proc/${pid}/environ`);
  return environ !== null && environ.split("\0").includes(entry);
}

export function describeGroup(pgid: number, marker: string | null): ProcessGroupRecord {
  return {
    pgid,
    host: hostname(),
    bootId: bootId(),
    startTicks: procStat(pgid)?.startTicks ?? null,
    marker,
  };
}

/** The record was made on this machine since its last boot, so its ids mean something here. */
export function sameMachine(record: ProcessGroupRecord): boolean {
  return record.host === hostname() && record.bootId === bootId();
}
