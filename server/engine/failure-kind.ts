/**
 * Why an iteration did not move the loop forward, in one word the timeline,
 * the report and the retry policy can tell apart, plus the agent process's
 * diagnostics (exit code, signal, stderr tail, parser warnings, where the
 * cost came from) that would otherwise be lost with the error string.
 * Adapters stay outside the engine: their error codes and meta fields are
 * read by name, as plain data.
 */
import type { Evidence } from "./analyze";
import type { AgentRunResult } from "./ports";
import type { IterationStatus } from "./stop-types";

export const failureKinds = [
  /** The attempt or the whole iteration ran out of time. */
  "timeout",
  /** The agent process exited non-zero, was killed by a signal, or could not start. */
  "crash",
  /** The CLI reported an error in-band (Claude Code is_error, error_during_execution). */
  "agent_error",
  /** The agent stopped at its turn limit (Claude Code error_max_turns). */
  "max_turns",
  /** A transient rate limit (HTTP 429, "Too Many Requests", "overloaded"). */
  "rate_limit",
  /** The plan's usage quota ("You've hit your usage limit", "Quota exceeded"). */
  "usage_limit",
  /** The agent's reply could not be understood: no event of its protocol, malformed JSON. */
  "malformed",
  /** The CLI exited 0 but its stream ended without a final result (no result event, no final message). */
  "no_result",
  /** Any other agent failure. */
  "error",
  /** An operator kill, a cancel or a health termination. */
  "interrupted",
  /** The output failed its validators. */
  "invalid_output",
  /** The agent ended its turn with a question instead of work. */
  "asked_question",
  /** The agent ran; the evidence says the goal is not met. */
  "evidence_failed",
  /** The agent ran; nothing could say whether the goal is met. */
  "no_evidence",
] as const;
export type FailureKind = (typeof failureKinds)[number];

/** The engine's own per-iteration bound (stop.iterationTimeout), over all attempts and backoff. */
export class IterationTimeoutError extends Error {
  constructor(readonly seconds: number) {
    super(`The iteration timed out after ${seconds}s (stop.iterationTimeout, all attempts included)`);
    this.name = "IterationTimeoutError";
  }
}

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** An agent error's kind, from the adapter's error code (AgentError.code) and details. */
export function errorFailureKind(error: unknown): FailureKind {
  if (error instanceof IterationTimeoutError) return "timeout";
  const name = field(error, "name");
  if (name === "AgentTimeoutError") return "timeout";
  const code = field(error, "code");
  const subtype = field(field(error, "details"), "subtype");
  switch (code) {
    case "timeout":
      return "timeout";
    case "exit_nonzero":
    case "spawn_failed":
      return "crash";
    case "agent_reported_error":
      return subtype === "error_max_turns" ? "max_turns" : "agent_error";
    case "rate_limited":
      return "rate_limit";
    case "usage_limit":
      return "usage_limit";
    case "bad_reply":
      return "malformed";
    case "no_result":
      return "no_result";
    case "aborted":
      return "interrupted";
    default:
      return "error";
  }
}

export function iterationFailureKind(args: {
  status: IterationStatus;
  error: unknown;
  question: string | undefined;
  evidence: Pick<Evidence, "complete">;
}): FailureKind | null {
  switch (args.status) {
    case "interrupted":
      return "interrupted";
    case "error":
      return errorFailureKind(args.error);
    case "failed":
      return "invalid_output";
    case "rate_limited":
      // Not counted as a failure (the loop waits for the provider's reset, see usage-limit.ts),
      // but which limit it was still tells the operator whether waiting will help soon.
      return errorFailureKind(args.error) === "usage_limit" ? "usage_limit" : "rate_limit";
    case "succeeded":
      if (args.question) return "asked_question";
      if (args.evidence.complete === false) return "evidence_failed";
      return args.evidence.complete === null ? "no_evidence" : null;
  }
}

/** What the agent process left behind, from an error's details or a result's meta. */
export interface IterationDiagnostics {
  exitCode?: number | null;
  signal?: string | null;
  stderrTail?: string;
  unparsedLines?: number;
  /** The first few stdout lines the parser could not read. */
  unparsedSample?: string[];
  warnings?: string[];
  costSource?: string;
  subtype?: string | null;
}

const STDERR_CHARS = 2000;

export function iterationDiagnostics(result: AgentRunResult | null, error: unknown): IterationDiagnostics | null {
  const source = result ? result.meta : field(error, "details");
  if (typeof source !== "object" || source === null) return null;
  const s = source as Record<string, unknown>;
  const out: IterationDiagnostics = {};
  if (typeof s.exitCode === "number" || s.exitCode === null) out.exitCode = s.exitCode;
  if (typeof s.signal === "string") out.signal = s.signal;
  if (typeof s.stderrTail === "string" && s.stderrTail.trim() !== "")
    out.stderrTail = s.stderrTail.slice(-STDERR_CHARS);
  if (typeof s.unparsedLines === "number") out.unparsedLines = s.unparsedLines;
  if (Array.isArray(s.unparsedSample) && s.unparsedSample.length > 0)
    out.unparsedSample = s.unparsedSample.filter((l): l is string => typeof l === "string").slice(0, 3);
  if (Array.isArray(s.warnings)) out.warnings = s.warnings.filter((w): w is string => typeof w === "string");
  if (typeof s.costSource === "string") out.costSource = s.costSource;
  if (typeof s.subtype === "string") out.subtype = s.subtype;
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * The meta a failed attempt keeps: the agent's transcript lines (what it said
 * and did before failing), when the adapter put them in the error's details.
 */
export function failureMeta(error: unknown): Record<string, unknown> | null {
  const details = field(error, "details");
  const transcript =
    typeof details === "object" && details !== null ? (details as { transcript?: unknown }).transcript : undefined;
  return typeof transcript === "object" && transcript !== null ? { transcript } : null;
}
