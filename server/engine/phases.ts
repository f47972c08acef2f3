/**
 * The middle phases of an iteration (Analyze, Verify, Learn and the handoff
 * half of Plan), each a small function over the iteration context. They
 * never throw for a misbehaving port: failures become recorded outcomes.
 */
import { runScorers, runVerification, type ScoringOutcome } from "./analyze";
import { budgetUsed } from "./budget";
import type { EventLog } from "./events";
import { contextUtilization, continuationPrompt, shouldHandoff } from "./handoff";
import { runReflection, shouldReflect } from "./learn-plan";
import { VERIFICATION_HISTORY } from "./list-bounds";
import * as ls from "./loop-state";
import type { AgentRunResult, Deps, EnginePorts, ValidationResult } from "./ports";
import type { RunPhaseOutcome } from "./run-phase";
import type { LoopSnapshot, WorkState } from "./snapshot";
import type { IterationStatus } from "./stop-types";
import { ENGINE } from "./transitions";
import { parseOutputData, runValidators } from "./validators";
import type { HandoffTrigger } from "./vocabulary";

/**
 * Earlier verdicts passed back to the verifier. Each carries up to 4000
 * characters of answer and lives in every stored snapshot, so only the most
 * recent few are kept (fewer if reflection.maxHistory is smaller).
 */
export { VERIFICATION_HISTORY };

export interface IterationContext {
  snapshot: LoopSnapshot;
  ports: EnginePorts;
  deps: Deps;
  log: EventLog;
  number: number;
  agentId: string;
  input: string;
  signal: AbortSignal;
}

export async function analyzePhase(ctx: IterationContext, result: AgentRunResult | null) {
  const { snapshot, ports, deps } = ctx;
  let scoring: ScoringOutcome = { scores: {}, reasons: {} };
  let validation: ValidationResult[] | null = null;
  if (result && snapshot.config.validation.enabled && ports.scorers?.length) {
    const scoreCtx = {
      loopId: snapshot.loopId,
      iteration: ctx.number,
      goal: snapshot.goal,
      input: ctx.input,
      output: result.output,
      claim: result.claim,
      toolCalls: result.toolCalls,
      signal: ctx.signal,
    };
    ctx.log.push(ctx.number, ENGINE, "scoring", { type: "phase_started", phase: "scorers" });
    scoring = await runScorers(ports.scorers, scoreCtx, snapshot.config.validation, deps);
  }
  if (result && ports.validators?.length) {
    const data = result.data !== undefined ? result.data : parseOutputData(result.output);
    const subject = { output: result.output, data, toolCalls: result.toolCalls, claim: result.claim };
    validation = runValidators(ports.validators, subject);
  }
  const meanScore = ls.meanOf(scoring.scores);
  const validationErrors = (validation ?? []).flatMap((r) => r.errors);
  const valid = !validation?.some((r) => !r.valid);
  if (Object.keys(scoring.scores).length > 0) {
    ctx.log.push(ctx.number, ENGINE, "scored", { type: "scored", scores: scoring.scores, meanScore });
  }
  if (validation) ctx.log.push(ctx.number, ENGINE, "validated", { type: "validated", valid, errors: validationErrors });
  return { scoring, validation, validationErrors, meanScore, valid };
}

export async function verifyPhase(ctx: IterationContext, result: AgentRunResult | null) {
  const { snapshot } = ctx;
  const config = snapshot.config;
  if (!result) {
    const verification = { status: "skipped" as const, reason: "no answer to verify" };
    return { verification, verifications: snapshot.verifications };
  }
  if (ctx.ports.verifier) ctx.log.push(ctx.number, ENGINE, "verifying", { type: "phase_started", phase: "verifier" });
  const verification = await runVerification({
    verifier: ctx.ports.verifier,
    config,
    task: snapshot.goal,
    answer: result.output,
    iteration: ctx.number,
    previous: snapshot.verifications,
    signal: ctx.signal,
  });
  if (verification.status !== "complete" && verification.status !== "incomplete") {
    return { verification, verifications: snapshot.verifications };
  }
  const complete = verification.status === "complete";
  const verified = { type: "verified" as const, complete, verdictReason: verification.reason };
  ctx.log.push(ctx.number, ENGINE, verification.reason, verified);
  const attempt = {
    iteration: ctx.number,
    answer: result.output.slice(0, config.verification.answerMaxChars),
    complete,
    reason: verification.reason,
  };
  const kept = Math.min(config.reflection.maxHistory, VERIFICATION_HISTORY);
  return { verification, verifications: [...snapshot.verifications, attempt].slice(-kept) };
}

export async function learnPhase(
  ctx: IterationContext,
  run: RunPhaseOutcome,
  status: IterationStatus,
  scoring: ScoringOutcome,
) {
  const { snapshot } = ctx;
  const meanScore = ls.meanOf(scoring.scores);
  if (!shouldReflect(snapshot.config, status, meanScore)) return null;
  if (ctx.ports.reflector)
    ctx.log.push(ctx.number, ENGINE, "reflecting", { type: "phase_started", phase: "reflector" });
  const { reflection } = await runReflection(ctx.ports.reflector, {
    loopId: snapshot.loopId,
    iteration: ctx.number,
    goal: snapshot.goal,
    input: ctx.input,
    output: run.result?.output ?? "",
    error: run.error,
    scores: scoring.scores,
    meanScore,
    level: snapshot.config.reflection.level,
    history: snapshot.state.reflectionHistory.map(({ iteration: _iteration, ...rest }) => rest),
    signal: ctx.signal,
  });
  if (reflection) ctx.log.push(ctx.number, ENGINE, reflection.summary, { type: "reflected", reflection });
  return reflection;
}

export function handoffPhase(
  ctx: IterationContext,
  args: {
    run: RunPhaseOutcome;
    status: IterationStatus;
    work: WorkState;
    consecutiveErrors: number;
    checkpointId: string;
  },
): { trigger: HandoffTrigger | null; continuation: string | null; utilization: number } {
  const { snapshot } = ctx;
  const result = args.run.result;
  const utilization = result
    ? contextUtilization(result.usage, snapshot.config.handoff, result.progress?.contextUtilization)
    : 0;
  if (args.status === "interrupted" || args.status === "rate_limited") {
    return { trigger: null, continuation: null, utilization };
  }
  const signals = {
    contextUtilization: utilization,
    tokenBudgetUsed: budgetUsed(snapshot.ledger.totals, snapshot.config.budget),
    consecutiveErrors: args.consecutiveErrors,
    phaseComplete: result?.progress?.phaseComplete === true,
    explicit: result?.progress?.requestHandoff === true,
  };
  const trigger = shouldHandoff(signals, snapshot.config.handoff);
  if (trigger === null) return { trigger, continuation: null, utilization };
  const { work } = args;
  const continuation = continuationPrompt({
    iteration: ctx.number,
    phase: work.phase,
    agentId: ctx.agentId,
    checkpointId: args.checkpointId,
    completed: work.completed,
    pending: work.pending,
    blocked: work.blocked,
    decisions: work.decisions,
    nextSteps: work.nextSteps,
  });
  ctx.log.push(ctx.number, ENGINE, trigger, { type: "handoff", trigger, continuation });
  return { trigger, continuation, utilization };
}
