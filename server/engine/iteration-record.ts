/**
 * The iteration record: everything one database row needs about one
 * iteration, claim beside evidence. Records are append-only; nothing in the
 * engine ever rewrites an earlier one.
 */
import type { ClaimMismatch, Evidence, VerificationOutcome } from "./analyze";
import type { Checkpoint } from "./checkpoint";
import type { FailureKind, IterationDiagnostics } from "./failure-kind";
import type { StepDecision } from "./decision";
import type { EngineEvent } from "./events";
import type { ControlAck } from "./control-commands";
import type { Reflection } from "./agent-reports";
import type {
  AgentClaim,
  AgentProgressReport,
  TestEvidence,
  TokenUsage,
  ValidationResult,
  WorkspaceResult,
} from "./ports";
import type { RetryFailure } from "./retry";
import type { AbortCause } from "./run-phase";
import type { LoopSnapshot } from "./snapshot";
import type { IterationStatus } from "./stop-types";
import type { HandoffTrigger, HealthState } from "./vocabulary";
import type { TraceSpan } from "./trace";

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
  /** Test evidence by scorer name (command checks); absent when no scorer reported any. */
  tests?: Record<string, TestEvidence>;
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
  /** Why the iteration did not move the loop forward; null when it did (or could not tell). */
  failureKind: FailureKind | null;
  /** The agent process's exit code, signal, stderr tail, parser warnings and cost source. */
  diagnostics: IterationDiagnostics | null;
  /** The question the agent ended its turn with (asked_question), or null. */
  question: string | null;
  interruptedBy: AbortCause | null;
  attempts: number;
  retries: RetryFailure[];
  progress: AgentProgressReport | null;
  madeProgress: boolean;
  checkpointId: string;
  /** The git workspace after the agent's run; null when the agent has none or the run failed. */
  workspace: WorkspaceResult | null;
  meta: Record<string, unknown> | null;
  /** When the agent, each scorer, the verifier and the reflector ran (the per-iteration waterfall). */
  trace?: TraceSpan[];
  /** Which agent ran it: the loop's own, or its fallback while the usage limit held. */
  agent?: "primary" | "fallback";
}

export interface StepResult {
  snapshot: LoopSnapshot;
  record: IterationRecord;
  checkpoint: Checkpoint;
  /** Every non-ephemeral event of the step, in order (also streamed to the EventSink). */
  events: EngineEvent[];
  /** Control requests answered in the Halt phase; the driver stores them with the step. */
  acks: ControlAck[];
  decision: StepDecision;
}
