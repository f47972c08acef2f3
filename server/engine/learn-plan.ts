/**
 * Phases 4 and 5, Learn and Plan: when to reflect (OB's rule), how the
 * agent's structured progress updates the work state, what counts as
 * progress, and which parts the next input is composed from.
 */
import type { LoopConfig } from "./config.schema";
import type { AgentProgressReport, Reflection, ReflectorPort, ReflectionContext } from "./ports";
import type { LoopSnapshot, PlanParts, WorkState } from "./snapshot";
import type { IterationStatus } from "./stop-types";
import { errorMessage } from "./validators";

/** OB: reflect when the run failed or the mean score is below minScoreThreshold. */
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

const union = (a: readonly string[], b: readonly string[] | undefined) => [...new Set([...a, ...(b ?? [])])];

/** Completed items and decisions accumulate; pending/blocked/next steps are replaced by the latest report. */
export function mergeWork(work: WorkState, report: AgentProgressReport | undefined): WorkState {
  if (!report) return work;
  const completed = union(work.completed, report.completedItems);
  return {
    phase: report.phase ?? work.phase,
    completed,
    pending: report.pendingItems?.filter((p) => !completed.includes(p)) ?? work.pending,
    blocked: report.blockedItems ?? work.blocked,
    decisions: union(work.decisions, report.decisions),
    assumptions: union(work.assumptions, report.assumptions),
    constraints: union(work.constraints, report.constraints),
    nextSteps: report.nextSteps ?? work.nextSteps,
    testResults: report.testResults ?? work.testResults,
  };
}

const EPSILON = 1e-9;

/** Progress: new completed items, a better mean score than ever before, or evidence of completion. */
export function madeProgress(args: {
  snapshot: LoopSnapshot;
  status: IterationStatus;
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
}): PlanParts {
  const feedback = args.reflection?.suggestions.length
    ? [...args.reflection.suggestions]
    : args.status === "error" && args.error
      ? [`The previous attempt failed: ${args.error}`]
      : [];
  return {
    feedback,
    validation: args.validationErrors,
    verifier: args.verifierReason,
    continuation: args.continuation,
    handoffTrigger: args.handoffTrigger,
  };
}
