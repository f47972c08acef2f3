// What the header's ETA and cost-to-finish say. Pure, so every state is tested.
// A loop that waits on a person (a gate, a question, a pause) or on a provider's
// usage limit has no honest ETA or cost to finish: approving a completion gate
// ends the loop, and nobody knows when a person answers. It says what it waits
// for instead of forecasting.
import { formatDuration, formatUsd } from "@/components/loops/format";

export const WAITING_ON: Record<string, string> = {
  awaiting_approval: "waiting for approval",
  needs_attention: "waiting for an answer",
  paused: "paused",
  waiting_for_limit: "waiting for the usage limit",
  draft: "not started",
};

export interface HeaderForecastInput {
  status: string;
  ended: boolean;
  etaMs: number | null;
  remaining: number;
  forecast: {
    projectedCostToFinish: number;
    projectedTotalCost: number;
    remainingIterations: number;
    iterationsUntilExhausted: number | null;
  } | null;
}

export interface HeaderForecast {
  eta: string;
  etaHint?: string;
  cost: string;
  costHint?: string;
}

export function headerForecast({ status, ended, etaMs, remaining, forecast }: HeaderForecastInput): HeaderForecast {
  if (ended) return { eta: "finished", cost: "—" };
  const waiting = WAITING_ON[status];
  if (waiting) return { eta: waiting, cost: waiting };
  return {
    eta: etaMs == null ? "—" : `≈ ${formatDuration(etaMs)}`,
    etaHint: `${remaining} iteration${remaining === 1 ? "" : "s"} at most`,
    cost: forecast ? `≈ ${formatUsd(forecast.projectedCostToFinish)}` : "—",
    costHint: !forecast
      ? undefined
      : forecast.iterationsUntilExhausted != null && forecast.iterationsUntilExhausted < forecast.remainingIterations
        ? `budget runs out in ~${forecast.iterationsUntilExhausted} iterations`
        : `total ≈ ${formatUsd(forecast.projectedTotalCost)}`,
  };
}

/**
 * The header's "n / max" in the iterations that count against the limit:
 * iterations a provider's usage limit stopped do not (the engine's own rule),
 * so after one of them a max of 6 read "7 / 6". They are named in the hint.
 */
export function iterationCount(
  iteration: number,
  max: number,
  limited: number,
): { value: string; note: string | null } {
  const counted = Math.max(0, iteration - limited);
  return {
    value: `${counted} / ${max}`,
    note: limited > 0 ? `+${limited} stopped by a usage limit, not counted` : null,
  };
}
