/**
 * CD's handoff protocol: when to hand the work to a fresh agent with a
 * continuation prompt, and the exact shape of that prompt.
 */
import type { LoopConfig } from "./config.schema";
import type { BlockedItem } from "./ports";
import type { ExecutionPhase, HandoffTrigger } from "./vocabulary";

export type HandoffConfig = LoopConfig["handoff"];

export interface HandoffSignals {
  /** 0..1 share of the agent's context window used in the last iteration. */
  contextUtilization: number;
  /** 0..1 share of the budget used, null without a budget. */
  tokenBudgetUsed: number | null;
  consecutiveErrors: number;
  phaseComplete: boolean;
  /** Operator "force handoff" or the agent asking for one. */
  explicit: boolean;
}

/** First matching trigger; an explicit request always wins. */
export function shouldHandoff(signals: HandoffSignals, config: HandoffConfig): HandoffTrigger | null {
  if (signals.explicit) return "explicit_request";
  if (signals.contextUtilization > config.contextThreshold) return "context_threshold";
  if (config.errorThreshold > 0 && signals.consecutiveErrors >= config.errorThreshold) return "error_threshold";
  if (signals.tokenBudgetUsed !== null && signals.tokenBudgetUsed > config.tokenBudgetThreshold) {
    return "token_budget";
  }
  if (config.onPhaseComplete && signals.phaseComplete) return "phase_complete";
  return null;
}

export interface ContinuationInput {
  iteration: number;
  phase: ExecutionPhase;
  agentId: string;
  checkpointId: string;
  completed: readonly string[];
  pending: readonly string[];
  blocked: readonly BlockedItem[];
  decisions: readonly string[];
  nextSteps: readonly string[];
}

const list = (items: readonly string[]) => (items.length === 0 ? "- (none)" : items.map((i) => `- ${i}`).join("\n"));

/** The continuation prompt, in CD's published layout. */
export function continuationPrompt(input: ContinuationInput): string {
  const nextSteps = input.nextSteps.length > 0 ? list(input.nextSteps) : "Continue with the pending items, in order.";
  return [
    `## Handoff from Iteration ${input.iteration}`,
    `**Phase:** ${input.phase}`,
    `**Last Agent:** ${input.agentId}`,
    `**Checkpoint:** ${input.checkpointId}`,
    "",
    "### Completed",
    list(input.completed),
    "",
    "### Pending",
    list(input.pending),
    "",
    "### Blocked",
    list(input.blocked.map((b) => `${b.item}: ${b.reason}`)),
    "",
    "### Key Decisions",
    list(input.decisions),
    "",
    "### Next Steps",
    nextSteps,
  ].join("\n");
}

/** Tokens the agent held in its window during the call, over the window size. */
export function contextUtilization(
  usage: { input: number; output: number; cache: number },
  config: HandoffConfig,
  reported?: number,
): number {
  if (reported !== undefined && Number.isFinite(reported)) return Math.min(1, Math.max(0, reported));
  return Math.min(1, (usage.input + usage.output + usage.cache) / config.contextWindowTokens);
}
