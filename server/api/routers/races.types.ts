// Output contracts of the races router: allow-lists of what the compare view, the race list and the
// cost-per-verified report may read.
import { z } from "zod";
import { loopRowStatuses, stopTypes } from "../../loops/vocabulary";

export const costPerVerifiedOutput = z.object({
  loops: z.number(),
  spendUsd: z.number(),
  verified: z.number(),
  costPerVerifiedUsd: z.number().nullable(),
});

const policy = z.enum(["first_verified", "operator"]);

export const raceCreatedOutput = z.object({ id: z.string(), loopIds: z.array(z.string()) });

export const raceDecisionOutput = z.object({
  raceId: z.string(),
  winnerLoopId: z.string(),
  stopped: z.array(z.string()),
  landing: z.object({ queued: z.boolean(), note: z.string(), entryId: z.string().optional() }),
});

export const raceCompareOutput = z.object({
  id: z.string(),
  name: z.string(),
  goal: z.string(),
  policy,
  targetBranch: z.string().nullable(),
  createdAt: z.string(),
  winnerLoopId: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decisionReason: z.string().nullable(),
  costPerVerified: costPerVerifiedOutput,
  contenders: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      agent: z.string(),
      status: z.enum(loopRowStatuses),
      stopType: z.enum(stopTypes).nullable(),
      stopReason: z.string().nullable(),
      iteration: z.number(),
      costUsd: z.number(),
      tokensIn: z.number(),
      tokensOut: z.number(),
      tokensCache: z.number(),
      bestScore: z.number().nullable(),
      startedAt: z.string().nullable(),
      finishedAt: z.string().nullable(),
      durationMs: z.number().nullable(),
      verified: z.boolean(),
      costPerVerifiedUsd: z.number().nullable(),
      verdictIteration: z.number().nullable(),
      verdictLines: z.array(z.object({ ok: z.boolean(), text: z.string() })),
      points: z.array(
        z.object({ number: z.number(), attempt: z.number(), status: z.string(), meanScore: z.number().nullable() }),
      ),
    }),
  ),
});

export const raceListOutput = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    goal: z.string(),
    policy,
    createdAt: z.string(),
    winnerLoopId: z.string().nullable(),
    contenders: z.number(),
    costPerVerified: costPerVerifiedOutput,
  }),
);

const grouped = z.array(costPerVerifiedOutput.extend({ key: z.string() }));
export const costReportOutput = z.object({
  from: z.string(),
  to: z.string(),
  total: costPerVerifiedOutput,
  byRace: grouped,
  byAgent: grouped,
  byAccount: grouped,
});
