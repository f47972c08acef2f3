// The dashboard's two alarms, judged in the browser so they fire as time
// passes without a refetch. Pure and unit-tested.
//  - runaway: a loop iterating unusually fast (a tight loop burning budget)
//    or an iteration running far longer than this loop's usual pace;
//  - silent agent: a loop that should be working but has sent no heartbeat.

export interface AlarmInput {
  status: string;
  lastHeartbeatAt: Date | null;
  lastActivityAt: Date;
  inflightStartedAt: Date | null;
  recent: { durationMs: number; finishedAt: Date }[];
}

export interface Alarm {
  kind: "runaway" | "silent" | "spend_rate" | "attention";
  title: string;
  detail: string;
}

/** The runtime heartbeats every 2 s while it works; 15 missed beats is not a hiccup. */
export const SILENT_AFTER_MS = 30_000;
/** More than one iteration a second, sustained over a minute. */
export const RUNAWAY_PER_MINUTE = 60;
/** The last few iterations this many times faster than the loop's earlier pace. */
export const SPEEDUP_FACTOR = 4;
/** An iteration this many times longer than the recent median (and at least a minute). */
export const SLOW_FACTOR = 5;
const MIN_LONG_MS = 60_000;
const NO_HISTORY_LONG_MS = 60 * 60_000;

const WORKING = ["running", "queued", "interrupting", "initializing"];
/** Only a loop that should be working can raise an alarm as time passes (the list ticks only for those). */
export const alarmsMoveWithTime = (status: string) => WORKING.includes(status);

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

export function loopAlarms(loop: AlarmInput, now: Date): Alarm[] {
  if (!WORKING.includes(loop.status)) return [];
  const alarms: Alarm[] = [];
  const t = now.getTime();

  const lastSignal = Math.max(loop.lastHeartbeatAt?.getTime() ?? 0, loop.lastActivityAt.getTime());
  if (t - lastSignal > SILENT_AFTER_MS) {
    alarms.push({
      kind: "silent",
      title: loop.status === "queued" ? "Not picked up" : "Silent agent",
      detail: `no heartbeat for ${seconds(t - lastSignal)}`,
    });
  }

  const lastMinute = loop.recent.filter((r) => t - r.finishedAt.getTime() <= 60_000).length;
  const durations = loop.recent.map((r) => r.durationMs);
  const recentPace = median(durations.slice(-5));
  const earlierPace = median(durations.slice(0, -5));
  if (lastMinute > RUNAWAY_PER_MINUTE) {
    alarms.push({ kind: "runaway", title: "Runaway", detail: `${lastMinute} iterations in the last minute` });
  } else if (
    durations.length >= 10 &&
    recentPace !== null &&
    earlierPace !== null &&
    earlierPace > 0 &&
    recentPace * SPEEDUP_FACTOR <= earlierPace
  ) {
    alarms.push({
      kind: "runaway",
      title: "Runaway",
      detail: `iterating ${Math.round(earlierPace / Math.max(1, recentPace))}× faster than before (${Math.round(recentPace)} ms each)`,
    });
  }

  if (loop.inflightStartedAt) {
    const running = t - loop.inflightStartedAt.getTime();
    const usual = median(durations.slice(-10));
    const tooLong =
      usual !== null && durations.length >= 3
        ? running > Math.max(MIN_LONG_MS, usual * SLOW_FACTOR)
        : running > NO_HISTORY_LONG_MS;
    if (tooLong) {
      alarms.push({
        kind: "runaway",
        title: "Long iteration",
        detail: usual ? `running ${seconds(running)}, usually ${seconds(usual)}` : `running ${seconds(running)}`,
      });
    }
  }
  return alarms;
}

/**
 * The server's alarms (judged on every iteration, whatever the list shows)
 * first; the browser's own judgement adds only kinds the server did not raise,
 * so an alarm still appears as time passes between refetches.
 */
export function allAlarms(loop: AlarmInput & { alarms?: Alarm[] }, now: Date): Alarm[] {
  const server = loop.alarms ?? [];
  return [...server, ...loopAlarms(loop, now).filter((a) => !server.some((s) => s.kind === a.kind))];
}
