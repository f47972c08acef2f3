/**
 * CD's token economics: consumption records, the pre-iteration budget check,
 * forecasts and efficiency figures. Pure; the ledger lives in the snapshot.
 */
import type { LoopConfig } from "./config.schema";
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
}

export function throttleDelay(throttles: number, config: BudgetConfig): number {
  return Math.min(config.throttleMaxDelayMs, config.throttleBaseDelayMs * 2 ** throttles);
}

const pct = (f: number) => `${(f * 100).toFixed(1)}%`;

export function checkBudget(ledger: BudgetLedger, config: BudgetConfig): BudgetCheck {
  const used = budgetUsed(ledger.totals, config);
  if (used === null) return { action: "ALLOW", usedFraction: 0, delayMs: 0, reason: "no budget set" };
  if (used < config.throttleAt) {
    return { action: "ALLOW", usedFraction: used, delayMs: 0, reason: `${pct(used)} of budget used` };
  }
  if (config.mode === "alert_only") {
    return { action: "ALERT_ONLY", usedFraction: used, delayMs: 0, reason: `${pct(used)} of budget used (alert only)` };
  }
  if (used >= config.denyAt) {
    return { action: "DENY", usedFraction: used, delayMs: 0, reason: `${pct(used)} of budget used: budget exhausted` };
  }
  return {
    action: "THROTTLE",
    usedFraction: used,
    delayMs: throttleDelay(ledger.throttles, config),
    reason: `${pct(used)} of budget used: throttling`,
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
  const byIteration = new Map<number, { cost: number; tokens: number }>();
  for (const r of records) {
    const entry = byIteration.get(r.iteration) ?? { cost: 0, tokens: 0 };
    entry.cost += r.costUsd;
    entry.tokens += r.input + r.output + r.cache;
    byIteration.set(r.iteration, entry);
  }
  const latest = [...byIteration.values()].slice(-window);
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
