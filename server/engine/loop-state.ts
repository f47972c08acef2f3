/**
 * OB's LoopState as immutable plain data: every "record" function returns a
 * new state, so a state can be checkpointed (to/from JSON) at any moment.
 */
import { z } from "zod";
import { historyKept, lastItems } from "./list-bounds";

export interface ReflectionEntry {
  iteration: number;
  summary: string;
  keyFindings: string[];
  rootCauses: string[];
  insights: string[];
  suggestions: string[];
}

export interface LoopState {
  iteration: number;
  /** Epoch ms; the loop's wall clock starts here. */
  startTime: number;
  cumulativeCost: number;
  consecutiveFailures: number;
  successfulSteps: number;
  failedSteps: number;
  totalTokens: number;
  /** Per-iteration score snapshots, bounded by reflection.maxHistory (at most HISTORY_CAP). */
  scoreHistory: Record<string, number>[];
  /** Best value per metric over all iterations, kept even when history is trimmed. */
  bestScores: Record<string, number>;
  reflectionHistory: ReflectionEntry[];
  maxHistory: number;
  metadata: Record<string, unknown>;
}

export function createLoopState(startTime: number, maxHistory = 50): LoopState {
  return {
    iteration: 0,
    startTime,
    cumulativeCost: 0,
    consecutiveFailures: 0,
    successfulSteps: 0,
    failedSteps: 0,
    totalTokens: 0,
    scoreHistory: [],
    bestScores: {},
    reflectionHistory: [],
    maxHistory,
    metadata: {},
  };
}

/** Seconds since the loop started. */
export function elapsed(state: LoopState, now: number): number {
  return Math.max(0, (now - state.startTime) / 1000);
}

export function successRate(state: LoopState): number {
  const steps = state.successfulSteps + state.failedSteps;
  return steps === 0 ? 0 : state.successfulSteps / steps;
}

export function latestScore(state: LoopState): Record<string, number> {
  return state.scoreHistory.at(-1) ?? {};
}

export function bestScore(state: LoopState, metric: string): number {
  return state.bestScores[metric] ?? 0;
}

export function meanOf(scores: Record<string, number>): number | null {
  const values = Object.values(scores);
  return values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
}

export function startIteration(state: LoopState): LoopState {
  return { ...state, iteration: state.iteration + 1 };
}

export function recordScore(state: LoopState, scores: Record<string, number>): LoopState {
  const bestScores = { ...state.bestScores };
  for (const [metric, value] of Object.entries(scores)) {
    bestScores[metric] = Math.max(bestScores[metric] ?? value, value);
  }
  return { ...state, scoreHistory: lastItems([...state.scoreHistory, { ...scores }], historyKept(state)), bestScores };
}

export function recordReflection(state: LoopState, reflection: ReflectionEntry): LoopState {
  return { ...state, reflectionHistory: lastItems([...state.reflectionHistory, reflection], historyKept(state)) };
}

export function recordSuccess(state: LoopState, usage: { tokens?: number; cost?: number } = {}): LoopState {
  return {
    ...state,
    successfulSteps: state.successfulSteps + 1,
    consecutiveFailures: 0,
    totalTokens: state.totalTokens + (usage.tokens ?? 0),
    cumulativeCost: state.cumulativeCost + (usage.cost ?? 0),
  };
}

/** Failed steps still spend money and tokens, so both are accounted for. */
export function recordFailure(state: LoopState, usage: { tokens?: number; cost?: number } = {}): LoopState {
  return {
    ...state,
    failedSteps: state.failedSteps + 1,
    consecutiveFailures: state.consecutiveFailures + 1,
    totalTokens: state.totalTokens + (usage.tokens ?? 0),
    cumulativeCost: state.cumulativeCost + (usage.cost ?? 0),
  };
}

/** An interrupted step is neither success nor failure, but its spend counts. */
export function recordSpend(state: LoopState, usage: { tokens?: number; cost?: number }): LoopState {
  return {
    ...state,
    totalTokens: state.totalTokens + (usage.tokens ?? 0),
    cumulativeCost: state.cumulativeCost + (usage.cost ?? 0),
  };
}

const reflectionEntrySchema = z.object({
  iteration: z.number(),
  summary: z.string(),
  keyFindings: z.array(z.string()),
  rootCauses: z.array(z.string()),
  insights: z.array(z.string()),
  suggestions: z.array(z.string()),
});

export const loopStateSchema = z.object({
  iteration: z.number().int().min(0),
  startTime: z.number(),
  cumulativeCost: z.number().min(0),
  consecutiveFailures: z.number().int().min(0),
  successfulSteps: z.number().int().min(0),
  failedSteps: z.number().int().min(0),
  totalTokens: z.number().min(0),
  scoreHistory: z.array(z.record(z.string(), z.number())),
  bestScores: z.record(z.string(), z.number()),
  reflectionHistory: z.array(reflectionEntrySchema),
  maxHistory: z.number().int().min(1),
  metadata: z.record(z.string(), z.unknown()),
});

export function loopStateToJSON(state: LoopState): string {
  return JSON.stringify(state);
}

export function loopStateFromJSON(json: string | unknown): LoopState {
  const value: unknown = typeof json === "string" ? JSON.parse(json) : json;
  return loopStateSchema.parse(value);
}

/** OB's repr, handy in logs: LoopState(iteration=5, success_rate=80.0%, elapsed=12.3s). */
export function describeLoopState(state: LoopState, now: number): string {
  const rate = (successRate(state) * 100).toFixed(1);
  return `LoopState(iteration=${state.iteration}, success_rate=${rate}%, elapsed=${elapsed(state, now).toFixed(1)}s)`;
}
