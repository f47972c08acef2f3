// Builders for chart tests: a point with sensible defaults.
import type { IterationPoint } from "../lib/charts/types";

export function point(number: number, over: Partial<IterationPoint> = {}): IterationPoint {
  return {
    number,
    attempt: 1,
    status: "succeeded",
    scores: {},
    meanScore: null,
    costUsd: 0,
    tokensIn: 0,
    tokensOut: 0,
    tokensCache: 0,
    durationMs: 1000,
    health: "healthy",
    handoffTrigger: null,
    claimedDone: false,
    claimMismatch: false,
    evidenceComplete: false,
    finishedAt: new Date(2026, 0, 1, 0, 0, number),
    ...over,
  };
}

export const scored = (number: number, mean: number, over: Partial<IterationPoint> = {}) =>
  point(number, { meanScore: mean, scores: { a: mean }, ...over });
