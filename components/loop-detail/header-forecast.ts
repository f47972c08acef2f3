// What the header's ETA and cost-to-finish say. Pure, so every state is tested.
// A loop that waits on a person (a gate, a question, a pause) or on a provider's
// usage limit has no honest ETA or cost to finish: approving a completion gate
// ends the loop, and nobody knows when a person answers. It says what it waits
// for instead of forecasting.
import { formatDuration, formatUsd } from "@/components/loops/format";
import type { LoopDetail } from "@/components/shared/api-types";

export const WAITING_ON: Record<string, string> = {
  awaiting_approval: "waiting for approval",
  needs_attention: "waiting for an answer",
  paused: "paused",
  waiting_for_limit: "waiting for the usage limit",
  draft: "not started",
};

export interface HeaderForecastInput {
  status: string;
  /** The loop waits because its budget throttles it: no pace to forecast from. */
  throttled?: boolean;
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

export function headerForecast({
  status,
  throttled,
  ended,
  etaMs,
  remaining,
  forecast,
}: HeaderForecastInput): HeaderForecast {
  if (ended) return { eta: "finished", cost: "—" };
  const waiting = WAITING_ON[status];
  if (waiting) return { eta: waiting, cost: waiting };
  // The recent iterations' pace ("≈ 38 ms") says nothing while each one waits for the budget first.
  if (throttled)
    return {
      eta: "throttled by budget",
      etaHint: "each iteration waits first",
      cost: forecast ? `≈ ${formatUsd(forecast.projectedCostToFinish)}` : "—",
      costHint: "stops at the budget",
    };
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

/** The router's budgetThrottle output (inferred, so a field the server drops stops compiling here). */
export type BudgetThrottleFacts = NonNullable<LoopDetail["budgetThrottle"]>;

const pct = (f: number) => `${Math.round(f * 100)}%`;

/**
 * Throttled by budget, in words: why the loop waits, against which limit,
 * and what the operator can do (it read a bare "waiting").
 */
export function budgetThrottleText(t: BudgetThrottleFacts): { title: string; detail: string; action: string } {
  const used =
    t.maxCostUsd > 0
      ? `${formatUsd(t.costUsd)} of the ${formatUsd(t.maxCostUsd)} budget`
      : `${t.tokens.toLocaleString("en-US")} of ${t.maxTokens.toLocaleString("en-US")} budgeted tokens`;
  return {
    title: `Throttled by budget: ${pct(t.usedFraction)} used (${used})`,
    detail: `From ${pct(t.throttleAt)} of the budget every iteration waits before it starts, longer each time; at ${pct(t.denyAt)} the loop stops.`,
    action: "To go on at full pace, raise the budget with Edit limits; to stop here, Terminate.",
  };
}
