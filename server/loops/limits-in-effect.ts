/**
 * The limits a report states: the ones in effect now (after any
 * operator edit through `update_limits`), each with the value the loop was
 * created with, so an edited limit says so instead of showing the original
 * as if it still held. Pure.
 */
import { parseLoopConfig, type LoopConfig } from "../engine";

const LIMITS: { key: string; label: string; read: (c: LoopConfig) => number }[] = [
  { key: "stop.maxIterations", label: "Max iterations", read: (c) => c.stop.maxIterations },
  { key: "stop.maxCost", label: "Cost limit (USD)", read: (c) => c.stop.maxCost },
  { key: "budget.maxCostUsd", label: "Budget (USD)", read: (c) => c.budget.maxCostUsd },
  { key: "budget.maxTokens", label: "Token budget", read: (c) => c.budget.maxTokens },
  { key: "stop.timeout", label: "Time limit (s)", read: (c) => c.stop.timeout },
  { key: "stop.scoreThreshold", label: "Score target", read: (c) => c.stop.scoreThreshold },
  { key: "stop.maxConsecutiveFailures", label: "Consecutive failures", read: (c) => c.stop.maxConsecutiveFailures },
  { key: "stop.noProgressIterations", label: "Iterations without progress", read: (c) => c.stop.noProgressIterations },
];

export interface SharedLimit {
  key: string;
  label: string;
  /** In effect now; 0 means off. */
  value: number;
  /** As the loop was created. */
  original: number;
  edited: boolean;
}

/**
 * @param inEffect the checkpoint's config (null before the first step: the
 *        stored definition is then what holds).
 * @param storedLoop the `loop` section of the stored definition.
 */
export function limitsInEffect(inEffect: LoopConfig | null, storedLoop: unknown): SharedLimit[] {
  let original: LoopConfig | null = null;
  try {
    // No stored section (a loop made without a definition): nothing to compare with, so nothing is called edited.
    original = storedLoop === undefined ? null : parseLoopConfig(storedLoop);
  } catch {
    original = null;
  }
  const now = inEffect ?? original ?? parseLoopConfig({});
  const was = original ?? now;
  return LIMITS.map(({ key, label, read }) => {
    const value = read(now);
    const first = read(was);
    return { key, label, value, original: first, edited: value !== first };
  });
}
