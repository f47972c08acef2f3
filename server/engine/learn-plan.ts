/**
 * Phases 4 and 5, Learn and Plan: when to reflect (OB's rule), how the
 * agent's structured progress updates the work state, what counts as
 * progress, and which parts the next input is composed from.
 */
import type { LoopConfig } from "./config.schema";
import type { Reflection } from "./agent-reports";
import type { Evidence } from "./analyze";
import type { AgentClaim, AgentProgressReport, ReflectorPort, ReflectionContext, TestEvidence } from "./ports";
import type { CheckFeedback, LoopSnapshot, PlanParts, WorkState } from "./snapshot";
import type { IterationStatus } from "./stop-types";
import { accumulate } from "./list-bounds";
import { detectQuestion } from "./question";
import { errorMessage } from "./validators";

/** OB: reflect when the run failed or the mean score is below minScoreThreshold. */
/**
 * The error as the next prompt quotes it. An agent whose error echoes its
 * prompt JSON-escaped (as CLIs rejecting an input do) would otherwise double
 * every backslash each iteration: the quoted error is in the next prompt, the
 * agent escapes it again. One backslash per run keeps the escape readable and
 * the feedback the same size every iteration.
 */
export function quotedError(error: string): string {
  return error.replace(/\\{2,}/g, "\\");
}

export function shouldReflect(config: LoopConfig, status: IterationStatus, meanScore: number | null): boolean {
  if (!config.reflection.enabled) return false;
  if (status === "failed" || status === "error") return true;
  return meanScore !== null && meanScore < config.validation.minScoreThreshold;
}

export async function runReflection(
  reflector: ReflectorPort | undefined,
  ctx: ReflectionContext,
): Promise<{ reflection: Reflection | null; error: string | null }> {
  if (!reflector) return { reflection: null, error: null };
  try {
    const r = await reflector.reflect(ctx);
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
    return {
      reflection: {
        summary: String(r.summary ?? ""),
        keyFindings: strings(r.keyFindings),
        rootCauses: strings(r.rootCauses),
        insights: strings(r.insights),
        suggestions: strings(r.suggestions),
      },
      error: null,
    };
  } catch (error) {
    return { reflection: null, error: `reflector error: ${errorMessage(error)}` };
  }
}

/**
 * Merges a report into the work state (completed items and decisions accumulate; pending, blocked and
 * next steps are replaced by the latest report), and counts the completed items the report added that the kept
 * list did not hold: the accumulated lists keep their latest items only
 * (list-bounds.ts), so progress counts additions, not the list's length.
 */
export function mergeWorkCounted(
  work: WorkState,
  report: AgentProgressReport | undefined,
): { work: WorkState; completedAdded: number } {
  if (!report) return { work, completedAdded: 0 };
  const completed = accumulate(work.completed, report.completedItems);
  return {
    completedAdded: completed.added,
    work: {
      phase: report.phase ?? work.phase,
      completed: completed.items,
      pending: report.pendingItems?.filter((p) => !completed.items.includes(p)) ?? work.pending,
      blocked: report.blockedItems ?? work.blocked,
      decisions: accumulate(work.decisions, report.decisions).items,
      assumptions: accumulate(work.assumptions, report.assumptions).items,
      constraints: accumulate(work.constraints, report.constraints).items,
      nextSteps: report.nextSteps ?? work.nextSteps,
      testResults: report.testResults ?? work.testResults,
    },
  };
}

const EPSILON = 1e-9;

/** Progress: new completed items, a better mean score than ever before, or evidence of completion. */
export function madeProgress(args: {
  snapshot: LoopSnapshot;
  status: IterationStatus;
  /** Completed items reported over the whole loop (a running total; the kept list is bounded). */
  completedCount: number;
  meanScore: number | null;
  evidenceComplete: boolean | null;
}): boolean {
  if (args.status === "interrupted" || args.status === "error") return false;
  const best = args.snapshot.progress.bestMeanScore;
  if (args.completedCount > args.snapshot.progress.completedCount) return true;
  if (args.meanScore !== null && (best === null || args.meanScore > best + EPSILON)) return true;
  return args.evidenceComplete === true;
}

export function planParts(args: {
  reflection: Reflection | null;
  status: IterationStatus;
  error: string | null;
  validationErrors: string[];
  verifierReason: string | null;
  continuation: PlanParts["continuation"];
  handoffTrigger: PlanParts["handoffTrigger"];
  /** Test evidence by check name, and the checks' scores. */
  tests?: Record<string, TestEvidence>;
  scores?: Record<string, number>;
  /** The agent's claim and the evidence it was checked against. */
  claim?: AgentClaim;
  evidence?: Evidence;
  /** A question the agent asked through its CLI's ask tool; it wins over one read from the output. */
  asked?: string;
  /** The agent's final output, read for a question addressed to the operator. */
  output?: string;
  /** What a model verifier judged the output asks the operator (it catches what the rules miss). */
  judged?: string;
}): PlanParts {
  // The CLI's own ask tool first, then the rules, then the model's judgement: any of them is a question.
  const question = args.asked?.trim() || (args.output ? detectQuestion(args.output) : null) || args.judged?.trim();
  const tests = checkFeedback(args.tests, args.scores ?? {});
  const rejectedClaim = args.claim && args.evidence ? rejectedClaimNotice(args.claim, args.evidence) : null;
  const feedback = args.reflection?.suggestions.length
    ? [...args.reflection.suggestions]
    : args.status === "error" && args.error
      ? [`The previous attempt failed: ${quotedError(args.error)}`]
      : [];
  return {
    feedback,
    validation: args.validationErrors,
    verifier: args.verifierReason,
    continuation: args.continuation,
    handoffTrigger: args.handoffTrigger,
    ...(tests.length > 0 ? { tests } : {}),
    ...(rejectedClaim ? { rejectedClaim } : {}),
    ...(question ? { question } : {}),
  };
}

/** A "done" claim the evidence did not confirm, said plainly so the next agent does not repeat it. */
export function rejectedClaimNotice(claim: AgentClaim, evidence: Evidence): string | null {
  if (!claim.done || evidence.complete === true) return null;
  const said = claim.text ? ` ("${claim.text.slice(0, 200)}")` : "";
  const refuted = evidence.checks.filter((c) => c.counted && !c.complete).map((c) => `- ${c.source}: ${c.detail}`);
  const why =
    refuted.length > 0
      ? `The evidence does not confirm it:\n${refuted.join("\n")}`
      : "No evidence source could confirm it.";
  return `The previous iteration claimed the goal was complete${said}, and the claim was rejected. ${why}\nDo not claim completion again until the evidence passes.`;
}

/** The checks the next agent must hear about: anything short of a clean, counted pass. */
export function checkFeedback(
  tests: Record<string, TestEvidence> | undefined,
  scores: Record<string, number>,
): CheckFeedback[] {
  return Object.entries(tests ?? {})
    .map(([check, evidence]) => ({ check, score: scores[check] ?? 0, ...evidence }))
    .filter((c) => c.score < 1 || c.failed > 0 || c.errored > 0 || c.error !== undefined);
}
