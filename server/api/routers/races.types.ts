// Output contracts of the races router: allow-lists of what the compare view, the race list and the
// cost-per-verified report may read.
import { z } from "zod";
import { loopPublicOutput } from "./loops.types";

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
    // A contender is a loop: its fields have the loop's own contracts.
    loopPublicOutput
      .pick({
        id: true,
        name: true,
        status: true,
        stopType: true,
        stopReason: true,
        iteration: true,
        costUsd: true,
        costPerVerifiedUsd: true,
        tokensIn: true,
        tokensOut: true,
        tokensCache: true,
        bestScore: true,
      })
      .extend({
        agent: z.string(),
        startedAt: z.string().nullable(),
        finishedAt: z.string().nullable(),
        durationMs: z.number().nullable(),
        verified: z.boolean(),
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
