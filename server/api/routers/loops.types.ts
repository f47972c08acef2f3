// Output contracts of the loops router. `loops.byId` answers with the loop's
// public fields only: the runtime's bookkeeping on the row (lease, version,
// in-flight attempt, checkpoint pointer) never reaches a browser, because the
// output schema strips every key it does not list.
import { z } from "zod";
import { healthStates, loopRowStatuses, stopTypes } from "../../loops/vocabulary";
import type {
  getIterationPage,
  getLoopDefinition,
  getLoopDetail,
  getSeriesWindow,
} from "../../loops/loop-detail.service";
import type { listLoopSummaries } from "../../loops/loop-list.service";
import type { loopTemplates } from "../../loops/loop-templates";
import type { sharedIterationPage, sharedLoopDetail } from "../../share/share-links.service";
import { CONTROL_LABELS, type LoopAction } from "../../loops/control-rules";

type Detail = Awaited<ReturnType<typeof getLoopDetail>>;

const date = z.date();
const nullableDate = z.date().nullable();

export const loopPublicOutput = z.object({
  id: z.string(),
  name: z.string(),
  goal: z.string(),
  agentKind: z.string(),
  /** The stored definition, secrets redacted. */
  config: z.custom<Detail["loop"]["config"]>(),
  status: z.enum(loopRowStatuses),
  /** The status, or "interrupting" while an interrupt or kill waits for the running iteration. */
  displayStatus: z.enum(loopRowStatuses),
  isTerminal: z.boolean(),
  stopType: z.enum(stopTypes).nullable(),
  stopReason: z.string().nullable(),
  health: z.enum(healthStates),
  iteration: z.number(),
  maxIterations: z.number(),
  costUsd: z.number(),
  /** Spend over verified outcomes (cost-per-verified.service.ts): the cost when the loop completed, else null. */
  costPerVerifiedUsd: z.number().nullable(),
  /** The race this loop is a contender in, if any. */
  raceId: z.string().nullable(),
  /**
   * What the running attempt's agent has reported spending so far: counted
   * even if the attempt is killed. Its process group stays on the server.
   */
  inflightAgent: z.preprocess(
    (stored) => stored ?? null,
    z
      .object({
        spend: z.object({ input: z.number(), output: z.number(), cache: z.number(), costUsd: z.number() }).optional(),
      })
      .nullable(),
  ),
  budgetUsd: z.number().nullable(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  tokensCache: z.number(),
  bestScore: z.number().nullable(),
  lastScore: z.number().nullable(),
  forkedFromId: z.string().nullable(),
  forkedFromIteration: z.number().nullable(),
  nextRunAt: nullableDate,
  lastActivityAt: date,
  createdAt: date,
  updatedAt: date,
  startedAt: nullableDate,
  finishedAt: nullableDate,
});

export const availabilityOutput = z.object({ allowed: z.boolean(), reason: z.string().nullable() });

export const LOOP_ACTIONS = [
  "start",
  "fork",
  "share",
  ...(Object.keys(CONTROL_LABELS) as (keyof typeof CONTROL_LABELS)[]),
] as const satisfies readonly LoopAction[];

/** The parts below the loop are built by the server from checkpoints and repositories, typed by it. */
export const loopDetailOutput = z.object({
  loop: loopPublicOutput,
  availability: z.record(z.enum(LOOP_ACTIONS), availabilityOutput),
  redactedPaths: z.array(z.string()),
  fork: z
    .object({
      parentId: z.string(),
      parentName: z.string().nullable(),
      iteration: z.number(),
      inheritedIterations: z.number(),
    })
    .nullable(),
  unsandboxed: z.custom<Detail["unsandboxed"]>(),
  config: z.custom<Detail["config"]>(),
  report: z.custom<Detail["report"]>(),
  forecast: z.custom<Detail["forecast"]>(),
  limitedIterations: z.number(),
  workspaceActions: z.object({ rollback: availabilityOutput, removeWorktree: availabilityOutput }),
  budgetThrottle: z
    .object({
      usedFraction: z.number(),
      costUsd: z.number(),
      maxCostUsd: z.number(),
      tokens: z.number(),
      maxTokens: z.number(),
      throttleAt: z.number(),
      denyAt: z.number(),
      untilMs: z.number(),
    })
    .nullable(),
  pendingGate: z.custom<Detail["pendingGate"]>(),
  pendingQuestion: z.object({ question: z.string(), iteration: z.number(), askedAt: z.number() }).nullable(),
  pendingControls: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      actor: z.string(),
      reason: z.string().nullable(),
      createdAt: date,
    }),
  ),
  approvals: z.custom<Detail["approvals"]>(),
  alarms: z.array(
    z.object({
      kind: z.enum(["runaway", "silent", "spend_rate", "attention"]),
      title: z.string(),
      detail: z.string(),
      action: z.enum(["alert", "pause"]),
    }),
  ),
  series: z.custom<Detail["series"]>(),
  seriesBucketSize: z.number(),
  markers: z.custom<Detail["markers"]>(),
  now: date,
});

type Summary = Awaited<ReturnType<typeof listLoopSummaries>>["items"][number];
type IterationItem = Awaited<ReturnType<typeof getIterationPage>>["items"][number];
type SharedDetail = Awaited<ReturnType<typeof sharedLoopDetail>>;
type SharedIteration = Awaited<ReturnType<typeof sharedIterationPage>>["items"][number];

/**
 * List rows and iteration rows are built field by field on the server
 * (LoopSummary, the iterations repository's select), so their element types
 * are the contract; the page envelopes are checked here.
 */
export const loopListOutput = z.object({
  items: z.array(z.custom<Summary>()),
  nextCursor: z.string().optional(),
  total: z.number(),
});

export const loopSummaryOutput = z.object({
  byStatus: z.record(z.string(), z.number()),
  total: z.number(),
  spendSinceUsd: z.number(),
  since: date,
  approvalsWaiting: z.number(),
  needsAttention: z.number(),
});

/** A page of iterations, newest first; `nextBeforeNumber` asks for the page before it. */
const iterationPage = <T>() => z.object({ items: z.array(z.custom<T>()), nextBeforeNumber: z.number().optional() });

export const iterationPageOutput = iterationPage<IterationItem>();

/** A zoomed-in window of the chart series: the same points as `loops.byId`'s `series`, for `from`..`to`. */
export const seriesWindowOutput = z.object({
  from: z.number(),
  to: z.number(),
  points: z.custom<Awaited<ReturnType<typeof getSeriesWindow>>["points"]>(),
  bucketSize: z.number(),
});

export const createdLoopOutput = z.object({ id: z.string() });
export const formSchemaOutput = z.record(z.string(), z.unknown());
export const secretChoicesOutput = z.array(
  z.object({
    path: z.array(z.union([z.string(), z.number()])),
    variable: z.string(),
    chosen: z.string().nullable(),
    byName: z.string().nullable(),
    options: z.array(z.string()),
  }),
);
export const templatesOutput = z.array(z.custom<ReturnType<typeof loopTemplates>[number]>());
export const definitionOutput = z.custom<Awaited<ReturnType<typeof getLoopDefinition>>>();

/** What anyone with the share link sees: allow-listed by redactLoopForShare, field by field. */
export const sharedDetailOutput = z.custom<SharedDetail>();
export const sharedIterationPageOutput = iterationPage<SharedIteration>();

export const shareLinkOutput = z.object({
  id: z.string(),
  loopId: z.string(),
  createdById: z.string().nullable(),
  createdAt: z.date(),
  expiresAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  lastAccessedAt: z.date().nullable(),
  state: z.enum(["active", "expired", "revoked"]),
});
export const createdShareOutput = z.object({
  id: z.string(),
  loopId: z.string(),
  expiresAt: z.date().nullable(),
  /** `/r/<token>`: the token is in this answer only. */
  path: z.string(),
});

const waitingLoop = z.object({ id: z.string(), name: z.string(), nextRunAt: nullableDate });

/** `loops.usageLimits`: provider limit windows and the loops waiting on them (Settings). */
export const usageLimitsOutput = z.object({
  windows: z.array(
    z.object({
      account: z.string(),
      until: date,
      learnedAt: date,
      message: z.string(),
      learnedBy: z.string().nullable(),
      window: z.string().nullable(),
      usedPercent: z.number().nullable(),
      loops: z.array(waitingLoop),
    }),
  ),
  otherWaiting: z.array(waitingLoop),
});

/** `loops.clearUsageLimit`: the loops sent "resume", and those that had moved on. */
export const clearedLimitOutput = z.object({
  account: z.string(),
  resumed: z.array(z.string()),
  refused: z.array(z.object({ id: z.string(), note: z.string() })),
});

/** loops.spendReconciliation: dollars only, no bookkeeping of the loop row. */
export const spendReconciliationOutput = z.object({
  loopId: z.string(),
  reportedUsd: z.number(),
  recordedUsd: z.number(),
  rowsUsd: z.number(),
  inflightUsd: z.number(),
  uncountedUsd: z.number(),
  rows: z.number().int(),
  interruptedRows: z.number().int(),
  interruptedUsd: z.number(),
  consistent: z.boolean(),
});
