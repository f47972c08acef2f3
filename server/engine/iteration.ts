/**
 * Exactly one iteration: Run -> Analyze -> Verify -> Learn -> Plan -> Halt.
 * Takes a snapshot and returns the next one with the iteration's record, its
 * checkpoint, its events and the decision; nothing else is kept anywhere.
 */
import { claimMismatch, computeEvidence } from "./analyze";
import { buildCheckpoint, newCheckpointId } from "./checkpoint";
import type { StopDetector } from "./detectors";
import { EventLog, type EngineEvent } from "./events";
import { failureMeta, iterationDiagnostics, iterationFailureKind } from "./failure-kind";
import { haltPhase } from "./halt-phase";
import { healthOnRunStart } from "./health";
import { accountBreaker, accountHealth, accountProgress, accountSpend, accountSteps } from "./iteration-accounting";
import type { ControlRequest } from "./control-commands";
import type { StepResult } from "./iteration-record";
import { planParts, shouldReflect } from "./learn-plan";
import * as ls from "./loop-state";
import { completionProtocol, composeInput } from "./next-input";
import type { Reflection } from "./agent-reports";
import type { Deps, EnginePorts } from "./ports";
import { analyzePhase, handoffPhase, learnPhase, verifyPhase, type IterationContext } from "./phases";
import { runAgentPhase } from "./run-phase";
import { emptyPlan, type LoopSnapshot } from "./snapshot";
import type { IterationStatus } from "./stop-types";
import { ENGINE, setStatus } from "./transitions";
import { afterWorkingIteration, agentFor, onUsageLimit } from "./usage-limit";
import { sortedTrace, span, timed, type TraceSpan } from "./trace";

export interface IterationOptions {
  /** Replaces the default detector chain (CD priority, then OB success). */
  detectors?: StopDetector;
  /**
   * The requests the Halt phase applies: read once, after the agent returned.
   * A failing read leaves them stored for the next safe point.
   */
  controls?: () => Promise<readonly ControlRequest[]>;
}

async function readAtHalt(read: IterationOptions["controls"]): Promise<readonly ControlRequest[]> {
  if (!read) return [];
  try {
    return await read();
  } catch {
    return [];
  }
}

function begin(snapshot: LoopSnapshot, deps: Deps, log: EventLog) {
  const startedAt = deps.now();
  const input = composeInput(snapshot.goal, {
    plan: snapshot.plan,
    sections: snapshot.config.input.sections,
    protocol: snapshot.config.completion.announce ? completionProtocol(snapshot.config.completion.signal) : null,
    questionPolicy: snapshot.config.question.policy,
    nudges: snapshot.inbox.nudges,
    approvalComments: snapshot.inbox.approvalComments,
    reminders: snapshot.health.reminders,
  });
  const events: EngineEvent[] = [];
  // The inbox, the plan and the reminders are consumed by this input.
  const next: LoopSnapshot = {
    ...setStatus(snapshot, "running", startedAt, ENGINE, "iteration starting", events),
    state: ls.startIteration(snapshot.state),
    inbox: { nudges: [], approvalComments: [] },
    plan: emptyPlan(),
    ledger: { ...snapshot.ledger, throttledUntil: null },
    health: healthOnRunStart({ ...snapshot.health, reminders: [] }, startedAt),
  };
  log.append(events);
  return { next, input, startedAt };
}

export async function runIteration(
  snapshot: LoopSnapshot,
  ports: EnginePorts,
  deps: Deps,
  signal?: AbortSignal,
  options: IterationOptions = {},
): Promise<StepResult> {
  if (snapshot.halt || snapshot.gate || snapshot.pause || snapshot.attention) {
    throw new Error(
      "runIteration: the loop is halted, gated or paused (or awaits an answer); ask beforeIteration first",
    );
  }
  const log = new EventLog({ loopId: snapshot.loopId, now: deps.now }, ports.events);
  const { next: started, input, startedAt } = begin(snapshot, deps, log);
  const agentId = deps.newId();
  const number = started.state.iteration;
  const ctxSignal = signal ?? new AbortController().signal;
  const ctx: IterationContext = { snapshot, ports, deps, log, number, agentId, input, signal: ctxSignal };
  const continuation = snapshot.plan.continuation;
  log.push(number, ENGINE, "iteration started", { type: "iteration_started", agentId, input });

  // Under the fallback policy, the fallback agent runs while the agent's limit holds.
  const ran = agentFor(snapshot, startedAt, ports.fallbackAgent !== undefined);
  const spans: TraceSpan[] = [];
  const run = await timed(spans, deps.now, "agent", "agent", () =>
    runAgentPhase({
      snapshot: started,
      ports: ran === "fallback" ? { ...ports, agent: ports.fallbackAgent! } : ports,
      deps,
      log,
      signal,
      iteration: number,
      agentId,
      input,
      continuation,
      health: started.health,
    }),
  );
  const result = run.result;
  const analysis = await analyzePhase(ctx, result);
  spans.push(...(analysis.scoring.spans ?? []));
  const status: IterationStatus = result
    ? analysis.valid
      ? "succeeded"
      : "failed"
    : run.kind === "interrupted"
      ? "interrupted"
      : run.kind === "limited"
        ? "rate_limited"
        : "error";
  const verifyStart = deps.now();
  const { verification, verifications } = await verifyPhase(ctx, result);
  // A skipped verification (none configured, disabled, no answer) took no time worth drawing.
  if (verification.status !== "skipped") spans.push(span("verifier", "verifier", verifyStart, deps.now()));
  const evidence = computeEvidence({
    config: snapshot.config,
    verification,
    meanScore: analysis.meanScore,
    validation: analysis.validation,
  });
  const claim = result?.claim ?? { done: false };
  const learnStart = deps.now();
  const reflection: Reflection | null = await learnPhase(ctx, run, status, analysis.scoring);
  if (ports.reflector && shouldReflect(snapshot.config, status, analysis.meanScore))
    spans.push(span("reflector", "reflector", learnStart, deps.now()));
  const now = deps.now();
  const spend = accountSpend(started.ledger, run.consumption);
  let state = accountSteps(started.state, status, analysis.scoring.scores, spend);
  if (reflection) state = ls.recordReflection(state, { iteration: number, ...reflection });
  const breaker = accountBreaker(snapshot, status, run.error, now, log);
  const health = accountHealth(snapshot, run.health, status, now, log);
  const { work, progress, progressed } = accountProgress(
    snapshot,
    result?.progress,
    status,
    analysis.meanScore,
    evidence.complete,
  );

  const checkpointId = newCheckpointId(deps);
  const withSpend = { ...snapshot, ledger: spend.ledger };
  const handoffArgs = { run, status, work, consecutiveErrors: health.consecutiveErrors, checkpointId };
  const handed = handoffPhase({ ...ctx, snapshot: withSpend }, handoffArgs);
  const maxOut = snapshot.config.recording.maxOutputChars;
  const output = (result?.output ?? "").slice(0, maxOut);
  const outputTruncated = result !== null && (result.truncated === true || result.output.length > maxOut);
  const finishedAt = deps.now();
  const mismatch = claimMismatch(claim, evidence);
  const plan = planParts({
    reflection,
    status,
    error: run.error,
    validationErrors: analysis.validationErrors,
    verifierReason: verification.status === "incomplete" ? verification.reason : null,
    continuation: handed.continuation,
    handoffTrigger: handed.trigger,
    tests: analysis.scoring.tests,
    scores: analysis.scoring.scores,
    claim,
    evidence,
    output: result?.output ?? "",
    asked: result?.question,
    judged: ("question" in verification ? verification.question : undefined) ?? analysis.scoring.question,
  });
  const last = {
    number,
    status,
    output,
    agentId,
    checkpointId,
    finishedAt,
    claim,
    scores: analysis.scoring.scores,
    meanScore: analysis.meanScore,
    evidenceComplete: evidence.complete,
    contextUtilization: handed.utilization,
  };
  const accounted: LoopSnapshot = {
    ...started,
    state,
    ledger: spend.ledger,
    breaker,
    health,
    work,
    progress,
    verifications,
    plan,
    last,
    updatedAt: finishedAt,
  };
  const limitEvents: EngineEvent[] = [];
  const planned =
    run.kind === "limited" && run.limit
      ? onUsageLimit(
          accounted,
          run.limit,
          { now: finishedAt, ran, hasFallback: ports.fallbackAgent !== undefined },
          limitEvents,
        )
      : status === "interrupted"
        ? accounted
        : afterWorkingIteration(accounted);
  log.push(number, agentId, `iteration ${status}`, {
    type: "iteration_finished",
    agentId,
    status,
    meanScore: analysis.meanScore,
    claimMismatch: mismatch !== null,
    costUsd: spend.costUsd,
    durationMs: finishedAt - startedAt,
  });
  log.append(limitEvents);

  const halted = haltPhase({
    snapshot: planned,
    deps,
    log,
    cause: run.cause,
    controls: await readAtHalt(options.controls),
    detectors: options.detectors,
  });
  const checkpoint = buildCheckpoint(halted.snapshot, deps, checkpointId);
  const created = { type: "checkpoint_created" as const, checkpointId, hash: checkpoint.hash };
  log.push(number, ENGINE, "checkpoint after iteration", created);

  return {
    snapshot: halted.snapshot,
    checkpoint,
    events: log.events,
    acks: halted.acks,
    decision: halted.decision,
    record: {
      loopId: snapshot.loopId,
      number,
      agentId,
      status,
      input,
      continuation,
      output,
      outputTruncated,
      claim,
      evidence,
      claimMismatch: mismatch,
      scores: analysis.scoring.scores,
      scoreReasons: analysis.scoring.reasons,
      ...(analysis.scoring.tests ? { tests: analysis.scoring.tests } : {}),
      meanScore: analysis.meanScore,
      validation: analysis.validation ? { valid: analysis.valid, results: analysis.validation } : null,
      verification,
      reflection,
      toolCalls: result?.toolCalls ?? run.toolCalls,
      tokens: spend.tokens,
      costUsd: spend.costUsd,
      startedAt,
      finishedAt,
      durationMs: finishedAt - startedAt,
      health: health.state,
      handoffTrigger: handed.trigger,
      error: run.error,
      failureKind: iterationFailureKind({ status, error: run.lastError, question: plan.question, evidence }),
      diagnostics: iterationDiagnostics(result, run.lastError),
      question: plan.question ?? null,
      interruptedBy: run.cause,
      attempts: run.attempts,
      retries: run.failures,
      progress: result?.progress ?? null,
      madeProgress: progressed,
      checkpointId,
      workspace: result?.workspace ?? null,
      meta: result?.meta ?? failureMeta(run.lastError),
      trace: sortedTrace(spans),
      agent: ran,
    },
  };
}
