/**
 * A complete loop for the "Demo (no keys)" template and the seed script: the
 * demo agent plus scorers that make its improvement visible (coverage of the
 * goal's key terms, and answer length), with score evidence only, so an
 * early "done" claim is visibly not enough.
 */
import type { LoopConfigInput } from "../engine";
import type { z } from "zod";
import type { agentConfigSchema, reflectorConfigSchema, verifierConfigSchema } from "./agent.schema";
import { DEMO_FULL_LENGTH } from "./demo.executor";
import { goalKeywords } from "./keyword.scorer";
import type { ScorerConfigInput } from "./scorer.schema";

export interface LoopPreset {
  goal: string;
  loop: LoopConfigInput;
  agent: z.input<typeof agentConfigSchema>;
  scorers: ScorerConfigInput[];
  verifier: z.input<typeof verifierConfigSchema>;
  reflector: z.input<typeof reflectorConfigSchema>;
}

export const DEFAULT_DEMO_GOAL =
  "Write a migration plan for moving user sessions from cookies to signed tokens, with rollout and rollback steps";

export function demoLoopPreset(
  goal: string = DEFAULT_DEMO_GOAL,
  options: { seed?: number; delayMs?: number; stepsToComplete?: number } = {},
): LoopPreset {
  const keywords = goalKeywords(goal);
  const terms = keywords.length ? keywords : ["overview", "approach", "details", "examples", "risks", "summary"];
  return {
    goal,
    loop: {
      stop: { maxIterations: 15, scoreThreshold: 0.95, noProgressIterations: 4, maxConsecutiveFailures: 3 },
      completion: { evidence: ["score"] },
      retry: { strategy: "exponential", maxAttempts: 3, minDelayMs: 200, maxDelayMs: 2000 },
      reflection: { enabled: true, level: "medium" },
      verification: { enabled: false },
      budget: { maxCostUsd: 1 },
    },
    agent: {
      kind: "demo",
      seed: options.seed ?? 42,
      delayMs: options.delayMs ?? 1200,
      ...(options.stepsToComplete ? { stepsToComplete: options.stepsToComplete } : {}),
      keywords: terms,
    },
    scorers: [
      { kind: "keyword", name: "coverage", keywords: terms },
      { kind: "length", name: "length", min: DEMO_FULL_LENGTH },
    ],
    verifier: { kind: "none" },
    reflector: { kind: "rule-based" },
  };
}
