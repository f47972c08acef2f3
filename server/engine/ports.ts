/**
 * Ports: the only ways the engine touches the outside world. Adapters in
 * server/agents and the runtime in server/loops implement these; tests use
 * fakes. Everything crossing a port is plain data, so it can be stored.
 */
import type { EngineEvent } from "./events";
import type { ExecutionPhase } from "./vocabulary";

// ---------------------------------------------------------------- time & ids

/** Injected effects, so the engine is deterministic under a fake clock. */
export interface Deps {
  /** Milliseconds since the epoch. */
  now(): number;
  /** A fresh unique id (agent ids, gate ids). */
  newId(): string;
  /** Uniform in [0, 1). */
  random(): number;
  /** Resolves after `ms`, or early (never rejects) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * SHA-256 hex of a UTF-8 string. Optional: the engine has its own pure
   * implementation; a runtime may pass a native one (same digests, faster).
   */
  sha256?(text: string): string;
}
/** Alias used by the brief. */
export type Clock = Deps;

// ---------------------------------------------------------------- agent

export interface TokenUsage {
  input: number;
  output: number;
  /** Cache-read tokens. */
  cache: number;
}

/** What the agent says about itself. Never sufficient for completion. */
export interface AgentClaim {
  done: boolean;
  text?: string;
}

export interface BlockedItem {
  item: string;
  reason: string;
}

export interface TestResults {
  passed: number;
  failed: number;
  skipped?: number;
}

/** Structured progress an adapter may parse from the agent (CD's checkpoint fields). */
export interface AgentProgressReport {
  phase?: ExecutionPhase;
  completedItems?: string[];
  pendingItems?: string[];
  blockedItems?: BlockedItem[];
  decisions?: string[];
  assumptions?: string[];
  constraints?: string[];
  nextSteps?: string[];
  phaseComplete?: boolean;
  /** The agent itself asks for a fresh context. */
  requestHandoff?: boolean;
  /** 0..1; overrides the engine's token-based estimate. */
  contextUtilization?: number;
  testResults?: TestResults;
}

/** Streamed while the agent runs; any event counts as a heartbeat. */
export type AgentProgressEvent =
  | { kind: "heartbeat" }
  | { kind: "progress"; message?: string }
  | { kind: "tool_call"; name: string }
  | { kind: "log"; message: string };

export interface AgentRunRequest {
  loopId: string;
  iteration: number;
  /** A new id per iteration: every iteration is a fresh agent. */
  agentId: string;
  attempt: number;
  goal: string;
  /** The full composed input (goal plus the documented sections). */
  input: string;
  /** The handoff continuation prompt, when this iteration follows a handoff. */
  continuation?: string;
  signal: AbortSignal;
  onProgress(event: AgentProgressEvent): void;
}

export interface AgentRunResult {
  output: string;
  claim: AgentClaim;
  usage: TokenUsage;
  costUsd: number;
  /** Tool names in call order. */
  toolCalls: string[];
  /** The adapter cut the output short. */
  truncated?: boolean;
  /** Structured output for schema validators; defaults to JSON-parsing `output`. */
  data?: unknown;
  progress?: AgentProgressReport;
  meta?: Record<string, unknown>;
}

export interface AgentPort {
  run(request: AgentRunRequest): Promise<AgentRunResult>;
}

// ---------------------------------------------------------------- analyze

export interface ScoreContext {
  loopId: string;
  iteration: number;
  goal: string;
  input: string;
  output: string;
  claim: AgentClaim;
  toolCalls: string[];
  signal: AbortSignal;
}

export interface ScoreResult {
  /** 0..1; values outside are clamped, NaN counts as 0. */
  score: number;
  reason?: string;
}

export interface ScorerPort {
  readonly name: string;
  score(ctx: ScoreContext): Promise<ScoreResult> | ScoreResult;
}

export interface ValidationSubject {
  output: string;
  /** Structured output: AgentRunResult.data, else the output parsed as JSON, else null. */
  data: unknown;
  toolCalls: string[];
  claim: AgentClaim;
}

export interface ValidationResult {
  name: string;
  valid: boolean;
  errors: string[];
}

/** SF-style validator; compose several with `compose(...)`. */
export type ValidatorFn = (subject: ValidationSubject) => ValidationResult;

// ---------------------------------------------------------------- verify & learn

export interface VerificationAttempt {
  iteration: number;
  answer: string;
  complete: boolean;
  reason: string;
}

export interface VerifyRequest {
  task: string;
  /** Truncated to verification.answerMaxChars (4000 by default). */
  answer: string;
  iteration: number;
  previousResults: VerificationAttempt[];
  signal: AbortSignal;
}

export interface VerificationVerdict {
  complete: boolean;
  reason: string;
}

export interface VerifierPort {
  verify(request: VerifyRequest): Promise<VerificationVerdict>;
}

export interface Reflection {
  summary: string;
  keyFindings: string[];
  rootCauses: string[];
  insights: string[];
  suggestions: string[];
}

export interface ReflectionContext {
  loopId: string;
  iteration: number;
  goal: string;
  input: string;
  output: string;
  error: string | null;
  scores: Record<string, number>;
  meanScore: number | null;
  level: "low" | "medium" | "high";
  history: Reflection[];
  signal: AbortSignal;
}

export interface ReflectorPort {
  reflect(ctx: ReflectionContext): Promise<Reflection>;
}

// ---------------------------------------------------------------- events & control

export interface EventSink {
  emit(event: EngineEvent): void | Promise<void>;
}

export type ControlCommand =
  | { type: "interrupt" }
  | { type: "kill" }
  | { type: "resume" }
  | { type: "force_handoff" }
  | { type: "nudge"; message: string }
  | { type: "approve"; comment?: string; gateId?: string }
  | { type: "reject"; comment?: string; gateId?: string }
  | { type: "request_changes"; comment: string; gateId?: string }
  | { type: "terminate" }
  /** A partial LoopConfig; re-validated as a whole before it applies. */
  | { type: "update_limits"; patch: unknown };

export type ControlType = ControlCommand["type"];

/** A stored operator request; the engine applies it at the next safe point. */
export interface ControlRequest {
  id: string;
  requestedAt: number;
  /** Who asked (user id, "system", ...), kept for the audit trail. */
  by: string;
  reason?: string;
  command: ControlCommand;
}

export interface ControlAck {
  requestId: string;
  outcome: "applied" | "rejected";
  note: string;
  at: number;
}

export interface ControlSource {
  /** Pending, not yet acknowledged requests for the loop, oldest first. */
  poll(loopId: string): Promise<ControlRequest[]>;
  ack(loopId: string, ack: ControlAck): Promise<void>;
}

// ---------------------------------------------------------------- bundle

export interface EnginePorts {
  agent: AgentPort;
  scorers?: ScorerPort[];
  validators?: ValidatorFn[];
  verifier?: VerifierPort;
  reflector?: ReflectorPort;
  events?: EventSink;
  controls?: ControlSource;
}
