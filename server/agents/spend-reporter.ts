/**
 * Passes the spend an agent reports mid-run to the tracker (at most once a
 * second, and the last value always), so that a crash of the server loses
 * none of it: the recovered iteration counts what the agent had spent.
 */
import type { AgentTracker, ReportedSpend } from "./deps";
import { priceUsage, type PriceLookup } from "./pricing";
import type { PartialSpend } from "./stream-parser";

const INTERVAL_MS = 1000;

export function priced(spend: PartialSpend, configured: string | undefined, pricing: PriceLookup): ReportedSpend {
  const model = configured ?? spend.model;
  const costUsd =
    spend.costUsd ??
    (model ? priceUsage(pricing, model, spend.usage, { cacheWrite: spend.cacheWriteTokens }).costUsd : 0);
  return { ...spend.usage, costUsd };
}

export function spendReporter(
  tracker: AgentTracker | undefined,
  where: { loopId: string; iteration: number },
  read: () => ReportedSpend | null,
) {
  let last = "";
  let lastAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const send = () => {
    timer = undefined;
    const spend = read();
    const key = JSON.stringify(spend);
    if (!spend || key === last) return;
    last = key;
    lastAt = performance.now();
    tracker!.spent(where.loopId, where.iteration, spend);
  };
  return {
    /** After each line: cheap when nothing changed. */
    poke() {
      if (!tracker || timer) return;
      const wait = INTERVAL_MS - (performance.now() - lastAt);
      if (wait <= 0) send();
      else timer = setTimeout(send, wait);
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
    /** At the end of the run: the last value, if a throttled one was still waiting. */
    flush() {
      if (!timer) return;
      clearTimeout(timer);
      send();
    },
  };
}
