// The runtime side of AgentTracker: what the command agent of the iteration
// in flight reports (its process group, the spend it printed) is written to
// the loop row, so the next owner can reap it and count it after a crash.
import type { AgentTracker } from "../agents/deps";
import type { Db } from "../db/client";
import { recordInflightAgent, type InflightAgent } from "../db/agent-runs.repo";

export function createAgentTracker(prisma: Db, loopId: string, owner: string): AgentTracker {
  let current: { iteration: number; agent: InflightAgent } | null = null;
  // Writes go in order; a failed one (lost lease, busy database) is not fatal: the watcher still guards the group.
  let queue: Promise<unknown> = Promise.resolve();
  const write = (iteration: number, patch: InflightAgent) => {
    if (current?.iteration !== iteration) current = { iteration, agent: {} };
    current.agent = { ...current.agent, ...patch };
    const snapshot = current.agent;
    queue = queue.then(() => recordInflightAgent(prisma, loopId, owner, iteration, snapshot)).catch(() => undefined);
  };
  return {
    started(id, iteration, group) {
      if (id === loopId) write(iteration, { group, spend: undefined });
    },
    spent(id, iteration, spend) {
      if (id === loopId) write(iteration, { spend });
    },
  };
}
