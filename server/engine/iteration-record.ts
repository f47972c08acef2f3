/**
 * The iteration record: everything one database row needs about one
 * iteration, claim beside evidence. Records are append-only; nothing in the
 * engine ever rewrites an earlier one.
 */
import type { ClaimMismatch, Evidence, VerificationOutcome } from "./analyze";
import type { Checkpoint } from "./checkpoint";
import type { StepDecision } from "./decision";
import type { EngineEvent } from "./events";
import type { AgentClaim, AgentProgressReport, ControlAck, Reflection, TokenUsage, ValidationResult } from "./ports";
import type { RetryFailure } from "./retry";
import type { AbortCause } from "./run-phase";
import type { LoopSnapshot } from "./snapshot";
import type { IterationStatus } from "./stop-types";
import type { HandoffTrigger, HealthState } from "./vocabulary";

export interface IterationRecord {
  loopId: string;
  number: number;
  agentId: string;
  status: IterationStatus;
  input: string;
  continuation: string | null;
  output: string;
  outputTruncated: boolean;
  claim: AgentClaim;
  evidence: Evidence;
  claimMismatch: ClaimMismatch | null;
  scores: Record<string, number>;
  scoreReasons: Record<string, string>;
  meanScore: number | null;
  validation: { valid: boolean; results: ValidationResult[] } | null;
  verification: VerificationOutcome;
  reflection: Reflection | null;
  toolCalls: string[];
  tokens: TokenUsage;
  costUsd: number;
  startedAt: number;
  finishedAt: number;
  durationMs: number;
  health: HealthState;
  handoffTrigger: HandoffTrigger | null;
  error: string | null;
  interruptedBy: AbortCause | null;
  attempts: number;
  retries: RetryFailure[];
  progress: AgentProgressReport | null;
  madeProgress: boolean;
  checkpointId: string;
  meta: Record<string, unknown> | null;
}

export interface StepResult {
  snapshot: LoopSnapshot;
  record: IterationRecord;
  checkpoint: Checkpoint;
  /** Every non-ephemeral event of the step, in order (also streamed to the EventSink). */
  events: EngineEvent[];
  /** Control requests applied or rejected during the step (already acked through the ControlSource). */
  acks: ControlAck[];
  decision: StepDecision;
}
