/**
 * CD's token economics: consumption records, the pre-iteration budget check,
 * forecasts and efficiency figures. Pure; the ledger lives in the snapshot.
 */
import type { LoopConfig } from "./config.schema";
import { percent, usd } from "./money";
import type { BudgetAction } from "./vocabulary";

export type BudgetConfig = LoopConfig["budget"];

export interface ConsumptionRecord {
  iteration: number;
  agentId: string;
  attempt: number;
  at: number;
  input: number;
  output: number;
  cache: number;
  costUsd: number;
  toolCalls: number;
}

export interface ConsumptionTotals {
  calls: number;
  input: number;
  output: number;
  cache: number;
  /** input + output + cache: every token the provider billed or served. */
  tokens: number;
  costUsd: number;
  toolCalls: number;
}

export interface BudgetLedger {
  totals: ConsumptionTotals;
  /** The latest records (bounded), enough for trends without growing forever. */
  recent: ConsumptionRecord[];
  /** Consecutive throttles, the exponent of the throttle backoff. */
  throttles: number;
  /** When set, the current throttle delay ends here; the next iteration may then run. */
  throttledUntil: number | null;
}

export const RECENT_RECORDS = 50;

export function createLedger(): BudgetLedger {
  return {
    totals: { calls: 0, input: 0, output: 0, cache: 0, tokens: 0, costUsd: 0, toolCalls: 0 },
    recent: [],
    throttles: 0,
    throttledUntil: null,
  };
}

export function recordConsumption(ledger: BudgetLedger, record: ConsumptionRecord): BudgetLedger {
  const t = ledger.totals;
  const totals: ConsumptionTotals = {
    calls: t.calls + 1,
    input: t.input + record.input,
    output: t.output + record.output,
    cache: t.cache + record.cache,
    tokens: t.tokens + record.input + record.output + record.cache,
    costUsd: t.costUsd + record.costUsd,
    toolCalls: t.toolCalls + record.toolCalls,
  };
  return { ...ledger, totals, recent: [...ledger.recent, record].slice(-RECENT_RECORDS) };
}

/** Fraction of the tighter of the two budgets used, or null when neither is set. */
export function budgetUsed(totals: ConsumptionTotals, config: BudgetConfig): number | null {
  const fractions: number[] = [];
  if (config.maxCostUsd > 0) fractions.push(totals.costUsd / config.maxCostUsd);
  if (config.maxTokens > 0) fractions.push(totals.tokens / config.maxTokens);
  return fractions.length === 0 ? null : Math.max(...fractions);
}

export interface BudgetCheck {
  action: BudgetAction;
  usedFraction: number;
  delayMs: number;
  reason: string;
  /** Dollars past the budget when spend already went over it (an iteration cost more than expected). */
  overshootUsd?: number;
}

export function throttleDelay(throttles: number, config: BudgetConfig): number {
  return Math.min(config.throttleMaxDelayMs, config.throttleBaseDelayMs * 2 ** throttles);
}

/** Iterations the next iteration's expected spend is estimated from. */
export const EXPECTED_SPEND_WINDOW = 5;

/** Float sums (0.005 × 3 = 0.015000000000000001) must not pass a limit they only meet. */
const TOLERANCE = 1e-9;
const passes = (value: number, limit: number) => value > limit * (1 + TOLERANCE);

export interface IterationSpend {
  iteration: number;
  cost: number;
  tokens: number;
}

/** Each iteration's spend in the ledger's recent records, oldest first; the attempts of one iteration add up. */
export function iterationSpends(records: readonly ConsumptionRecord[]): IterationSpend[] {
  const byIteration = new Map<number, IterationSpend>();
  for (const r of records) {
    const entry = byIteration.get(r.iteration) ?? { iteration: r.iteration, cost: 0, tokens: 0 };
    entry.cost += r.costUsd;
    entry.tokens += r.input + r.output + r.cache;
    byIteration.set(r.iteration, entry);
  }
  return [...byIteration.values()];
}

export interface ExpectedSpend {
  cost: number;
  tokens: number;
  /** How many iterations the estimate rests on (0: nothing to go on yet, so nothing is expected). */
  basis: number;
}

/**
 * What the next iteration is expected to spend: the most any of the last
 * `window` iterations spent. The maximum, not the mean: a budget is a
 * ceiling, and an estimate that is right on average lets every other loop
 * end above it.
 */
export function expectedNextSpend(ledger: Pick<BudgetLedger, "recent">, window = EXPECTED_SPEND_WINDOW): ExpectedSpend {
  const latest = iterationSpends(ledger.recent).slice(-window);
  return {
    cost: Math.max(0, ...latest.map((s) => s.cost)),
    tokens: Math.max(0, ...latest.map((s) => s.tokens)),
    basis: latest.length,
  };
}

/**
 * Why spend went past `limit`, with the numbers: how far over, and what the
 * last iteration cost against what was expected of it. Null when it did not.
 */
/** A spend against a cost limit: `what` names the limit in the reason ("budget", "cost limit"). */
interface SpendAgainst {
  spent: number;
  limit: number;
  ledger: Pick<BudgetLedger, "recent">;
  what: string;
}

export function costOvershoot({
  spent,
  limit,
  ledger,
  what,
}: SpendAgainst): { text: string; overshootUsd: number } | null {
  if (limit <= 0 || !passes(spent, limit)) return null;
  const over = spent - limit;
  const spends = iterationSpends(ledger.recent);
  const last = spends.at(-1);
  const before = spends.slice(-EXPECTED_SPEND_WINDOW - 1, -1);
  const expected = before.length ? Math.max(...before.map((s) => s.cost)) : null;
  const why =
    last && expected !== null && last.cost > expected
      ? `; iteration ${last.iteration} cost ${usd(last.cost)}, ${usd(last.cost - expected)} more than the ${usd(expected)} expected`
      : last
        ? `; iteration ${last.iteration} cost ${usd(last.cost)}`
        : "";
  return {
    text: `${usd(spent)} spent of the ${usd(limit)} ${what}: ${usd(over)} (${percent(over / limit)}) over${why}`,
    overshootUsd: over,
  };
}

/**
 * Stop before a cost ceiling is passed: the spend so far plus the next
 * iteration's expected cost must stay within `limit`. Null while it does.
 */
export function costCeiling(against: SpendAgainst): { reason: string; overshootUsd: number } | null {
  const { spent, limit, ledger, what } = against;
  if (limit <= 0) return null;
  const over = costOvershoot(against);
  if (over) return { reason: over.text, overshootUsd: over.overshootUsd };
  if (spent >= limit * (1 - TOLERANCE))
    return { reason: `${usd(spent)} spent of the ${usd(limit)} ${what}`, overshootUsd: 0 };
  const next = expectedNextSpend(ledger);
  if (!passes(spent + next.cost, limit)) return null;
  return {
    reason:
      `${usd(spent)} spent of the ${usd(limit)} ${what}; the next iteration is expected to cost about ${usd(next.cost)} ` +
      `(the most of the last ${next.basis}), which would pass it`,
    overshootUsd: 0,
  };
}

/**
 * The budget decision before an iteration. In enforce mode an iteration is
 * denied when the spend so far plus what the next one is expected to spend
 * (expectedNextSpend) would pass the deny threshold, not only once spend is
 * already there: otherwise the last allowed iteration overshoots by up to
 * its own cost. When spend did pass the budget, the reason says by how much.
 */
export function checkBudget(ledger: BudgetLedger, config: BudgetConfig): BudgetCheck {
  const used = budgetUsed(ledger.totals, config);
  if (used === null) return { action: "ALLOW", usedFraction: 0, delayMs: 0, reason: "no budget set" };
  if (config.mode === "alert_only") {
    return used < config.throttleAt
      ? { action: "ALLOW", usedFraction: used, delayMs: 0, reason: `${percent(used)} of budget used` }
      : {
          action: "ALERT_ONLY",
          usedFraction: used,
          delayMs: 0,
          reason: `${percent(used)} of budget used (alert only)`,
        };
  }
  const deny = (reason: string, overshootUsd?: number): BudgetCheck => ({
    action: "DENY",
    usedFraction: used,
    delayMs: 0,
    reason,
    ...(overshootUsd ? { overshootUsd } : {}),
  });
  const costLimit = config.maxCostUsd * config.denyAt;
  const over = costOvershoot({ spent: ledger.totals.costUsd, limit: config.maxCostUsd, ledger, what: "budget" });
  if (used >= config.denyAt * (1 - TOLERANCE)) {
    return deny(
      `${percent(used)} of budget used: budget exhausted${over ? ` (${over.text})` : ""}`,
      over?.overshootUsd,
    );
  }
  const next = expectedNextSpend(ledger);
  const projected = budgetUsed(
    { ...ledger.totals, costUsd: ledger.totals.costUsd + next.cost, tokens: ledger.totals.tokens + next.tokens },
    config,
  )!;
  if (passes(projected, config.denyAt)) {
    const basis = `(the most of the last ${next.basis}), which would pass it`;
    const t = ledger.totals;
    return deny(
      config.maxCostUsd > 0 && passes(t.costUsd + next.cost, costLimit)
        ? `${usd(t.costUsd)} spent of the ${usd(costLimit)} budget (${percent(used)}); ` +
            `the next iteration is expected to cost about ${usd(next.cost)} ${basis}`
        : `${t.tokens} of ${config.maxTokens * config.denyAt} budgeted tokens used (${percent(used)}); ` +
            `the next iteration is expected to use about ${Math.round(next.tokens)} ${basis}`,
    );
  }
  if (used < config.throttleAt) {
    return { action: "ALLOW", usedFraction: used, delayMs: 0, reason: `${percent(used)} of budget used` };
  }
  const delayMs = throttleDelay(ledger.throttles, config);
  const t = ledger.totals;
  // With the numbers: "throttling" alone left operators reading a bare "waiting".
  const spent =
    config.maxCostUsd > 0
      ? `${usd(t.costUsd)} of ${usd(config.maxCostUsd)}`
      : `${t.tokens} of ${config.maxTokens} tokens`;
  return {
    action: "THROTTLE",
    usedFraction: used,
    delayMs,
    reason:
      `${percent(used)} of budget used (${spent}): throttled from ${percent(config.throttleAt)}, ` +
      `the next iteration waits ${delayMs < 1000 ? `${delayMs} ms` : `${Math.round(delayMs / 1000)} s`}`,
  };
}

export interface BudgetForecast {
  /** Mean cost of the latest iterations (the trend window). */
  costPerIteration: number;
  tokensPerIteration: number;
  remainingIterations: number;
  projectedCostToFinish: number;
  projectedTotalCost: number;
  /** Whole iterations the remaining budget still pays for; null without a budget or a trend. */
  iterationsUntilExhausted: number | null;
}

function perIteration(records: readonly ConsumptionRecord[], window: number) {
  const latest = iterationSpends(records).slice(-window);
  if (latest.length === 0) return { cost: 0, tokens: 0 };
  return {
    cost: latest.reduce((s, e) => s + e.cost, 0) / latest.length,
    tokens: latest.reduce((s, e) => s + e.tokens, 0) / latest.length,
  };
}

export function forecastBudget(
  ledger: BudgetLedger,
  config: BudgetConfig,
  remainingIterations: number,
  window = 5,
): BudgetForecast {
  const trend = perIteration(ledger.recent, window);
  const remaining = Math.max(0, remainingIterations);
  const projectedCostToFinish = trend.cost * remaining;
  const limits: number[] = [];
  if (config.maxCostUsd > 0 && trend.cost > 0) {
    limits.push(Math.max(0, config.maxCostUsd - ledger.totals.costUsd) / trend.cost);
  }
  if (config.maxTokens > 0 && trend.tokens > 0) {
    limits.push(Math.max(0, config.maxTokens - ledger.totals.tokens) / trend.tokens);
  }
  return {
    costPerIteration: trend.cost,
    tokensPerIteration: trend.tokens,
    remainingIterations: remaining,
    projectedCostToFinish,
    projectedTotalCost: ledger.totals.costUsd + projectedCostToFinish,
    iterationsUntilExhausted: limits.length === 0 ? null : Math.floor(Math.min(...limits)),
  };
}

export interface EfficiencyMetrics {
  tokensPerToolCall: number | null;
  /** Cache reads over all prompt-side tokens (input + cache). */
  cacheHitRate: number | null;
  costPerCall: number | null;
}

export function efficiency(totals: ConsumptionTotals): EfficiencyMetrics {
  const promptSide = totals.input + totals.cache;
  return {
    tokensPerToolCall: totals.toolCalls === 0 ? null : totals.tokens / totals.toolCalls,
    cacheHitRate: promptSide === 0 ? null : totals.cache / promptSide,
    costPerCall: totals.calls === 0 ? null : totals.costUsd / totals.calls,
  };
}
