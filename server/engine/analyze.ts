/**
 * Phases 2 and 3, Analyze and Verify, plus the evidence verdict that sits
 * beside the agent's claim. A broken scorer or verifier never throws out of
 * here: it yields a recorded 0 / "error" so the loop cannot be fooled upward.
 */
import type { LoopConfig, EvidenceSource } from "./config.schema";
import type {
  AgentClaim,
  Deps,
  ScoreContext,
  ScorerPort,
  TestEvidence,
  ValidationResult,
  VerificationAttempt,
  VerifierPort,
} from "./ports";
import { errorMessage } from "./validators";
import { timed, type TraceSpan } from "./trace";

export interface ScoringOutcome {
  scores: Record<string, number>;
  reasons: Record<string, string>;
  /** Test evidence by scorer name, from the scorers that report it (command checks). */
  tests?: Record<string, TestEvidence>;
  /** When each scorer ran (only when the caller gave a clock). */
  spans?: TraceSpan[];
  /** What a model judge (a scorer) judged the output asks the operator, if any. */
  question?: string;
}

type ScoredOne = { score: number; reason: string; tests?: TestEvidence; question?: string };

export function clampScore(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

export function selectScorers(scorers: readonly ScorerPort[], names: readonly string[]): ScorerPort[] {
  return names.length === 0 ? [...scorers] : scorers.filter((s) => names.includes(s.name));
}

async function scoreOne(
  scorer: ScorerPort,
  ctx: ScoreContext,
  timeoutMs: number,
  deps: Pick<Deps, "sleep">,
): Promise<ScoredOne> {
  const stop = new AbortController();
  const timers: Promise<ScoredOne>[] = [];
  if (timeoutMs > 0) {
    timers.push(
      deps.sleep(timeoutMs, stop.signal).then(() => ({ score: 0, reason: `timed out after ${timeoutMs / 1000}s` })),
    );
  }
  const scored = Promise.resolve()
    .then(() => scorer.score({ ...ctx }))
    .then(
      (r): ScoredOne => ({
        score: clampScore(r.score),
        reason: r.reason ?? "",
        ...(r.tests ? { tests: r.tests } : {}),
        ...(typeof r.question === "string" && r.question.trim() !== ""
          ? { question: r.question.trim().slice(0, 500) }
          : {}),
      }),
      (error: unknown) => ({ score: 0, reason: `error: ${errorMessage(error)}` }),
    );
  try {
    return await Promise.race([scored, ...timers]);
  } finally {
    stop.abort("scored"); // a reason of our own: no DOMException built per scorer
  }
}

/** Runs at most `parallel` scorers at once; results keep the scorers' order. */
export async function runScorers(
  scorers: readonly ScorerPort[],
  ctx: ScoreContext,
  config: LoopConfig["validation"],
  deps: Pick<Deps, "sleep"> & Partial<Pick<Deps, "now">>,
): Promise<ScoringOutcome> {
  const selected = selectScorers(scorers, config.scorerNames);
  const results: ScoredOne[] = new Array(selected.length);
  const spans: TraceSpan[] = [];
  let next = 0;
  const worker = async () => {
    while (next < selected.length) {
      const index = next++;
      const one = () => scoreOne(selected[index]!, ctx, config.timeout * 1000, deps);
      results[index] = deps.now ? await timed(spans, deps.now, "scorer", selected[index]!.name, one) : await one();
    }
  };
  await Promise.all(Array.from({ length: Math.min(config.parallel, selected.length) }, worker));
  const outcome: ScoringOutcome = { scores: {}, reasons: {} };
  selected.forEach((scorer, i) => {
    outcome.scores[scorer.name] = results[i]!.score;
    if (results[i]!.reason) outcome.reasons[scorer.name] = results[i]!.reason;
    const tests = results[i]!.tests;
    if (tests) outcome.tests = { ...outcome.tests, [scorer.name]: tests };
    outcome.question ??= results[i]!.question;
  });
  if (deps.now) outcome.spans = spans;
  return outcome;
}

export interface VerificationOutcome {
  status: "complete" | "incomplete" | "skipped" | "error";
  reason: string;
  /** The verifier judged that the answer asks the operator this (model verifiers only). */
  question?: string;
}

/** Characters of the answer's end sent to the verifier for its question judgement. */
export const FINAL_MESSAGE_CHARS = 1500;

export async function runVerification(args: {
  verifier: VerifierPort | undefined;
  config: LoopConfig;
  task: string;
  answer: string;
  iteration: number;
  previous: readonly VerificationAttempt[];
  signal: AbortSignal;
}): Promise<VerificationOutcome> {
  const { config, iteration } = args;
  if (config.verification.enabled === false) return { status: "skipped", reason: "verification disabled" };
  if (!args.verifier) return { status: "skipped", reason: "no verifier configured" };
  // The last iteration is verified too: success there ends the loop completed
  // (completion outranks the iteration limit), so skipping it would hide a fix.
  try {
    const verdict = await args.verifier.verify({
      task: args.task,
      answer: args.answer.slice(0, config.verification.answerMaxChars),
      iteration,
      previousResults: [...args.previous],
      finalMessage: args.answer.trim().slice(-FINAL_MESSAGE_CHARS),
      signal: args.signal,
    });
    const question = typeof verdict.question === "string" ? verdict.question.trim().slice(0, 500) : "";
    return {
      status: verdict.complete === true ? "complete" : "incomplete",
      reason: String(verdict.reason ?? ""),
      ...(question !== "" ? { question } : {}),
    };
  } catch (error) {
    return { status: "error", reason: `verifier error: ${errorMessage(error)}` };
  }
}

export interface EvidenceCheck {
  source: EvidenceSource;
  complete: boolean;
  detail: string;
  /** Whether config.completion.evidence lets this source prove completion. */
  counted: boolean;
}

export interface Evidence {
  checks: EvidenceCheck[];
  /** null when no counted evidence exists: the claim then stands alone and proves nothing. */
  complete: boolean | null;
}

export function computeEvidence(args: {
  config: LoopConfig;
  verification: VerificationOutcome;
  meanScore: number | null;
  validation: readonly ValidationResult[] | null;
}): Evidence {
  const { config } = args;
  const allowed = config.completion.evidence;
  const checks: EvidenceCheck[] = [];
  const add = (source: EvidenceSource, complete: boolean, detail: string) =>
    checks.push({ source, complete, detail, counted: allowed.includes(source) });
  const v = args.verification;
  if (v.status === "complete" || v.status === "incomplete") add("verifier", v.status === "complete", v.reason);
  if (config.stop.scoreThreshold > 0 && args.meanScore !== null) {
    const ok = args.meanScore >= config.stop.scoreThreshold;
    add("score", ok, `mean ${args.meanScore.toFixed(3)} ${ok ? ">=" : "<"} ${config.stop.scoreThreshold}`);
  }
  if (args.validation && args.validation.length > 0) {
    const failed = args.validation.filter((r) => !r.valid);
    const detail = failed.length === 0 ? "all validators pass" : failed.flatMap((r) => r.errors).join("; ");
    add("validators", failed.length === 0, detail);
  }
  const counted = checks.filter((c) => c.counted);
  if (counted.length === 0) return { checks, complete: null };
  const complete =
    config.completion.mode === "all" ? counted.every((c) => c.complete) : counted.some((c) => c.complete);
  return { checks, complete };
}

export type ClaimMismatch = "claimed_done_without_evidence" | "evidence_done_without_claim";

/** "Agent said done, evidence says no" (or the reverse), for the UI to flag. */
export function claimMismatch(claim: AgentClaim, evidence: Evidence): ClaimMismatch | null {
  if (claim.done && evidence.complete !== true) return "claimed_done_without_evidence";
  if (!claim.done && evidence.complete === true) return "evidence_done_without_claim";
  return null;
}
