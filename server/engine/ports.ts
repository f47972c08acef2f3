/**
 * Ports: the only ways the engine touches the outside world. Adapters in
 * server/agents and the runtime in server/loops implement these; tests use
 * fakes. Everything crossing a port is plain data, so it can be stored.
 */
import type { AgentProgressEvent, Reflection } from "./agent-reports";
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
   * SHA-256 hex of a UTF-8 string, sealing checkpoints. The runtime injects
   * the native one (node:crypto); the engine carries no hash of its own.
   */
  sha256(text: string): string;
}

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
  /** What the agent prints to claim done (completion.signal), for the adapter's claim parser. */
  completionSignal?: string;
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
  /** A question the agent put to the operator through its CLI's own ask tool (e.g. AskUserQuestion). */
  question?: string;
  /** The loop's git workspace after the run (agents that work in one). */
  workspace?: WorkspaceResult;
  meta?: Record<string, unknown>;
}

/** One file an iteration changed, as its snapshot's diffstat lists it. */
export interface WorkspaceFileChange {
  path: string;
  status: "added" | "modified" | "deleted" | "renamed";
  from?: string;
  insertions: number;
  deletions: number;
  binary: boolean;
}

/** The iteration's commit on the loop branch and its diffstat. */
export interface WorkspaceSnapshot {
  sha: string;
  parentSha: string;
  files: WorkspaceFileChange[];
  insertions: number;
  deletions: number;
}

/**
 * The workspace as an agent left it: the iteration's snapshot, its code diff
 * (capped) and the protected evidence it changed, or why no snapshot was taken.
 */
export type WorkspaceResult =
  | {
      snapshot: WorkspaceSnapshot;
      diff: { text: string; truncated: boolean };
      /** Protected files the agent changed and what the loop's policy did about them; null when none. */
      tampered: { files: string[]; policy: string } | null;
    }
  | { error: string };

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

/** One failing test as its runner named it; the message is the first lines, capped. */
export interface FailingTest {
  name: string;
  file?: string;
  message?: string;
}

/**
 * What a test command's report said, kept with the iteration and handed to the
 * next input: counts, the failing tests (capped) and why the score is what it is.
 */
export interface TestEvidence {
  passed: number;
  failed: number;
  skipped: number;
  /** Failures outside any test: a file that did not load, a hook, a crashed or cut-off run. */
  errored: number;
  failures: FailingTest[];
  /** Failing tests left out of `failures` by the caps. */
  moreFailures: number;
  /** What was parsed: "tap", "junit", "json", "go-json", "libtest-log", "summary", or "exit-code" when nothing was. */
  format: string;
  /** The runner detected or configured (vitest, jest, pytest, ...), if any. */
  runner: string | null;
  /** True when a complete report backs the counts; false when the score rests on the exit code or is withheld. */
  counted: boolean;
  exitCode: number | null;
  /** Report not understood, output truncated, exit code disagreeing with the counts, ... */
  warnings: string[];
  /** The runner's own error output when it failed without a usable report (a crash, a syntax error). */
  error?: string;
  /** How the loop graded this check on a clean tree against the baseline inventory (absent: not graded so). */
  grading?: TestGrading;
}

/** A check graded from a clean tree of the iteration's commit, against the tests of the base commit. */
export interface TestGrading {
  /** The commit graded (the iteration's snapshot, protected paths reset to the base). */
  sha: string;
  /** One line per requirement ("2 of 2 targets pass", "45 of 45 kept", "47 ran, baseline 47", ...). */
  lines: { ok: boolean; text: string }[];
  /** What the agent tampered with (files, refs, .git, code detecting the test run); any entry blocks completion. */
  tampering: { what: string; how: string }[];
  /** New test files under protected paths, left out of the graded tree. */
  notGraded: string[];
  /** Per-test grading, or exit-code grading (no per-test inventory). */
  mode: "per-test" | "exit-code";
  /** How many of the loop's iterations so far were caught tampering (this one included), when this one was. */
  tamperedIterations?: number;
}

export interface ScoreResult {
  /** 0..1; values outside are clamped, NaN counts as 0. */
  score: number;
  reason?: string;
  /** Test evidence from a command check; stored on the iteration and fed to the next input. */
  tests?: TestEvidence;
  /** A model judge's reading: the output asks the operator this, or says it is blocked on them. */
  question?: string | null;
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
  /** The end of the answer (its last paragraphs), where an agent asks or says it is blocked. */
  finalMessage?: string;
  signal: AbortSignal;
}

export interface VerificationVerdict {
  complete: boolean;
  reason: string;
  /**
   * A model verifier also judges whether the answer asks the operator a
   * question or says it is blocked on them: the question, or absent.
   */
  question?: string | null;
}

export interface VerifierPort {
  verify(request: VerifyRequest): Promise<VerificationVerdict>;
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

// ---------------------------------------------------------------- events

export interface EventSink {
  emit(event: EngineEvent): void | Promise<void>;
}

// ---------------------------------------------------------------- bundle

export interface EnginePorts {
  agent: AgentPort;
  /** Runs the iterations while the agent's usage limit holds, under `limits.onUsageLimit: fallback`. */
  fallbackAgent?: AgentPort;
  scorers?: ScorerPort[];
  validators?: ValidatorFn[];
  verifier?: VerifierPort;
  reflector?: ReflectorPort;
  events?: EventSink;
}
