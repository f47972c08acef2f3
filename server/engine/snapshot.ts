/**
 * LoopSnapshot: everything needed to continue a loop, as plain JSON data.
 * The runtime stores it after every step; the engine never keeps state
 * anywhere else, which is what makes step-by-step execution durable.
 */
import { createBreaker, type BreakerState } from "./circuit-breaker";
import { parseLoopConfig, type LoopConfig } from "./config.schema";
import { createLedger, type BudgetLedger } from "./budget";
import { createHealth, type HealthSnapshot } from "./health";
import { createLoopState, type LoopState } from "./loop-state";
import type { AgentClaim, BlockedItem, Deps, TestEvidence, TestResults, VerificationAttempt } from "./ports";
import type { IterationStatus, LoopStatus, StopType } from "./stop-types";
import type { ApprovalDefaultAction } from "./config.schema";
import { SNAPSHOT_VERSION } from "./snapshot-versions";
import type { UsageLimitState } from "./usage-limit-state";
import type { ExecutionPhase, GateKind, HandoffTrigger } from "./vocabulary";

/** CD's execution state, as last reported by the agents. */
export interface WorkState {
  phase: ExecutionPhase;
  completed: string[];
  pending: string[];
  blocked: BlockedItem[];
  decisions: string[];
  assumptions: string[];
  constraints: string[];
  nextSteps: string[];
  testResults: TestResults | null;
}

/** Output of the Plan phase; composed into the next input when it runs. */
export interface PlanParts {
  feedback: string[];
  validation: string[];
  verifier: string | null;
  continuation: string | null;
  handoffTrigger: HandoffTrigger | null;
  /** The question the previous agent ended its turn with, if it asked one. */
  question?: string;
  /** The operator's answer to that question (the `answer` control); absent when none was given. */
  answer?: Note;
  /** Why the previous "done" claim was not accepted; absent when there was no such claim. */
  rejectedClaim?: string;
  /** Checks whose tests did not all pass, with the failing tests: structured, for the input composer. */
  tests?: CheckFeedback[];
}

/** A command check's evidence as the next input sees it. */
export interface CheckFeedback extends TestEvidence {
  check: string;
  score: number;
}

export interface Note {
  text: string;
  by: string;
  at: number;
}

export interface PendingGate {
  id: string;
  kind: GateKind;
  iteration: number;
  requestedAt: number;
  deadlineAt: number | null;
  defaultAction: ApprovalDefaultAction;
  reason: string;
  /** For a completion gate: the success stop waiting for approval. */
  stopType: StopType | null;
  /** For a budget gate: the percentage crossed. */
  percent: number | null;
}

/** The loop waits for the operator to answer the agent's question (question.policy "ask"). */
export interface Attention {
  question: string;
  iteration: number;
  askedAt: number;
}

export interface HaltInfo {
  stopType: StopType;
  reason: string;
  at: number;
  actor: string;
}

export interface LastIteration {
  number: number;
  status: IterationStatus | null;
  output: string;
  agentId: string | null;
  checkpointId: string | null;
  finishedAt: number | null;
  scores: Record<string, number>;
  meanScore: number | null;
  claim: AgentClaim | null;
  evidenceComplete: boolean | null;
  contextUtilization: number;
}

export interface LoopSnapshot {
  version: number;
  loopId: string;
  goal: string;
  config: LoopConfig;
  status: LoopStatus;
  createdAt: number;
  updatedAt: number;
  state: LoopState;
  breaker: BreakerState;
  health: HealthSnapshot;
  ledger: BudgetLedger;
  work: WorkState;
  plan: PlanParts;
  inbox: { nudges: Note[]; approvalComments: Note[] };
  forceHandoff: Note | null;
  gate: PendingGate | null;
  gatesCleared: { budgetPercents: number[]; periodicIteration: number };
  pause: Note | null;
  /** Optional so snapshots written before it existed restore unchanged. */
  attention?: Attention | null;
  halt: HaltInfo | null;
  progress: {
    iterationsWithoutProgress: number;
    bestMeanScore: number | null;
    completedCount: number;
    /** The last report's completed items as a set (list-bounds.ts `itemsDigest`); absent until one reports them. */
    completedDigest?: string;
  };
  /** Earlier verifier verdicts, passed back as AL's "previous results". */
  verifications: VerificationAttempt[];
  last: LastIteration;
  /** Usage-limit waits and fallback (usage-limit.ts); absent in snapshots written before them. */
  usageLimit?: UsageLimitState;
}

export function emptyPlan(): PlanParts {
  return { feedback: [], validation: [], verifier: null, continuation: null, handoffTrigger: null };
}

export function createLoop(
  goal: string,
  configInput: unknown,
  deps: Pick<Deps, "now" | "newId">,
  loopId?: string,
): LoopSnapshot {
  if (goal.trim() === "") throw new Error("goal must not be empty");
  const config = parseLoopConfig(configInput);
  const now = deps.now();
  return {
    version: SNAPSHOT_VERSION,
    loopId: loopId ?? deps.newId(),
    goal,
    config,
    status: "initializing",
    createdAt: now,
    updatedAt: now,
    state: createLoopState(now, config.reflection.maxHistory),
    breaker: createBreaker(),
    health: createHealth(),
    ledger: createLedger(),
    work: {
      phase: "PLANNING",
      completed: [],
      pending: [],
      blocked: [],
      decisions: [],
      assumptions: [],
      constraints: [],
      nextSteps: [],
      testResults: null,
    },
    plan: emptyPlan(),
    inbox: { nudges: [], approvalComments: [] },
    forceHandoff: null,
    gate: null,
    gatesCleared: { budgetPercents: [], periodicIteration: 0 },
    pause: null,
    attention: null,
    halt: null,
    progress: { iterationsWithoutProgress: 0, bestMeanScore: null, completedCount: 0 },
    verifications: [],
    last: {
      number: 0,
      status: null,
      output: "",
      agentId: null,
      checkpointId: null,
      finishedAt: null,
      scores: {},
      meanScore: null,
      claim: null,
      evidenceComplete: null,
      contextUtilization: 0,
    },
  };
}

/** Iterations still allowed by maxIterations. */
export function remainingIterations(snapshot: LoopSnapshot): number {
  const limited = snapshot.usageLimit?.limitedIterations ?? 0;
  return Math.max(0, snapshot.config.stop.maxIterations - (snapshot.state.iteration - limited));
}
