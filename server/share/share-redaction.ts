/**
 * What a shared (anonymous, read-only) page may show of a loop.
 *
 * Allow-lists, not block-lists: a column added to Loop later stays private
 * until someone adds it here. Agent/scorer/verifier/reflector configs go
 * through the adapters' `redact*Config` (every field whose schema carries
 * `secret: true` is blanked: env names, stored-secret ids, webhook headers,
 * fixed env values); the workspace path, lease and creator columns are
 * dropped; operators are named only as "an operator".
 */
import {
  redactAgentConfig,
  redactReflectorConfig,
  redactScorerConfigs,
  redactVerifierConfig,
} from "../agents/agent.schema";
import type { getLoopDetail } from "../loops/loop-detail.service";
import { redactFreeText, redactFreeTextDeep } from "./free-text-redaction";

export type LoopDetail = Awaited<ReturnType<typeof getLoopDetail>>;

const LOOP_FIELDS = [
  "id",
  "name",
  "goal",
  "agentKind",
  "status",
  "displayStatus",
  "isTerminal",
  "stopType",
  "stopReason",
  "health",
  "iteration",
  "maxIterations",
  "costUsd",
  "costPerVerifiedUsd",
  "budgetUsd",
  "tokensIn",
  "tokensOut",
  "tokensCache",
  "bestScore",
  "lastScore",
  "createdAt",
  "updatedAt",
  "startedAt",
  "finishedAt",
  "lastActivityAt",
] as const;

type SharedLoop = Pick<LoopDetail["loop"], (typeof LOOP_FIELDS)[number]> & { definition: Record<string, unknown> };

const SOMEONE = "an operator";

/** The stored definition (agent, scorers, verifier, reflector, limits) with secrets blanked and the workspace path dropped. */
function redactDefinition(config: unknown): Record<string, unknown> {
  const stored = (config ?? {}) as Record<string, unknown>;
  return {
    loop: stored.loop,
    agent: redactAgentConfig(stored.agent),
    scorers: redactScorerConfigs(stored.scorers ?? []),
    verifier: redactVerifierConfig(stored.verifier),
    reflector: redactReflectorConfig(stored.reflector),
  };
}

/**
 * Turns `getLoopDetail(db, loopId, now)` into what `/r/[token]` renders.
 * Pure; call it on the server before anything reaches the page.
 */
export function redactLoopForShare(detail: LoopDetail) {
  const loop = Object.fromEntries(LOOP_FIELDS.map((key) => [key, detail.loop[key]])) as Omit<SharedLoop, "definition">;
  return {
    loop: {
      ...loop,
      // An operator's terminate or kill reason is free text: previewed in the dialog, redacted here.
      stopReason: loop.stopReason === null ? null : redactFreeText(loop.stopReason).text,
      definition: redactDefinition(detail.loop.config),
    } satisfies SharedLoop,
    config: detail.config,
    report: detail.report ? { ...detail.report, reason: redactFreeText(detail.report.reason).text } : null,
    forecast: detail.forecast,
    pendingGate: detail.pendingGate,
    pendingControls: detail.pendingControls.map(({ id, kind, createdAt }) => ({ id, kind, createdAt, actor: SOMEONE })),
    approvals: detail.approvals.map(({ decidedById: _id, decidedBy, ...rest }) => ({
      ...redactFreeTextDeep(rest),
      decidedBy: decidedBy ? SOMEONE : null,
    })),
    // Which loop each point ran in (a fork's parent) is not the reader's business.
    series: detail.series.map(({ loopId: _loopId, ...point }) => point),
    seriesBucketSize: detail.seriesBucketSize,
    // Chart markers without who did what.
    markers: detail.markers.map(({ id, type, createdAt, payload }) => ({
      id,
      type,
      createdAt,
      payload: redactFreeTextDeep(payload),
      actor: SOMEONE,
    })),
    now: detail.now,
  };
}

type IterationLike = { loopId?: string; agentId?: string; checkpointId?: string | null };

/** Iteration rows for a shared page: the work itself stays (adapters already scrub resolved secret values), internal ids go. */
export function redactIterationsForShare<T extends IterationLike>(rows: T[]): Omit<T, "agentId" | "checkpointId">[] {
  return rows.map(({ agentId: _a, checkpointId: _c, ...rest }) => rest);
}
