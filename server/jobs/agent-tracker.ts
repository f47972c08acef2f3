// The runtime side of AgentTracker: what the command agent of the iteration
// in flight reports (its process group, the spend it printed) is written to
// the loop row, so the next owner can reap it and count it after a crash.
//
// The first record of an iteration waits RECORD_DELAY_MS: an agent that is
// done by then needs no reaping (its lifeline already killed the group), and
// the spend it printed is kept by the step commit that normally lands within
// that time, so an agent that answers at once costs no write at all (a durable
// commit is an fsync on the server's main thread, in the gap between
// iterations). The spend of such an agent is written only if the step has not
// been committed RECORD_DELAY_MS after the agent started: a crash in that window
// loses it, as it loses the spend of any agent in its first RECORD_DELAY_MS.
// While a process runs, its lifeline pipe is what kills the group if this
// server dies; the record is the next owner's second line of defence.
import type { AgentTracker, ReportedSpend } from "../agents/deps";
import type { Db } from "../db/client";
import { recordInflightAgent, type InflightAgent } from "../db/agent-runs.repo";

export const RECORD_DELAY_MS = 50;

export interface RuntimeAgentTracker extends AgentTracker {
  /** The last spend the agent of `iteration` reported (kept in memory: a runtime that lost its lease stores it late). */
  reported(iteration: number): ReportedSpend | null;
}

export function createAgentTracker(
  prisma: Db,
  loopId: string,
  owner: string,
  delayMs = RECORD_DELAY_MS,
  /** The spool file of the attempt of `iteration` in flight (spend-spool.ts), if spooled. */
  spool?: (iteration: number) => string | undefined,
): RuntimeAgentTracker {
  let last: { iteration: number; spend: ReportedSpend } | null = null;
  let current: {
    iteration: number;
    agent: InflightAgent;
    timer?: ReturnType<typeof setTimeout>;
    written: boolean;
  } | null = null;
  // Writes go in order; a failed one (lost lease, busy database) is not fatal: the watcher still guards the group.
  let queue: Promise<unknown> = Promise.resolve();
  const flush = () => {
    if (!current) return;
    clearTimeout(current.timer);
    current.timer = undefined;
    current.written = true;
    const { iteration, agent } = current;
    queue = queue.then(() => recordInflightAgent(prisma, loopId, owner, iteration, agent)).catch(() => undefined);
  };
  const write = (iteration: number, patch: InflightAgent) => {
    if (current?.iteration !== iteration) {
      clearTimeout(current?.timer);
      current = { iteration, agent: {}, written: false };
    }
    current.agent = { ...current.agent, ...patch };
    if (current.written) flush();
    else current.timer ??= setTimeout(flush, delayMs);
  };
  return {
    started(id, iteration, group) {
      if (id === loopId) write(iteration, { group, spend: undefined });
    },
    spent(id, iteration, spend) {
      if (id !== loopId) return;
      last = { iteration, spend };
      write(iteration, { spend });
    },
    spoolFile(id, iteration) {
      return id === loopId ? spool?.(iteration) : undefined;
    },
    reported(iteration) {
      return last?.iteration === iteration ? last.spend : null;
    },
    finished(id, iteration) {
      if (id !== loopId || current?.iteration !== iteration || current.written) return;
      // The group is gone. What it spent waits for the pending timer: the next iteration's start
      // (after this one's step commit) cancels it; a step that takes longer has it written.
      if (!current.agent.spend) {
        clearTimeout(current.timer);
        current.timer = undefined;
      }
    },
  };
}
