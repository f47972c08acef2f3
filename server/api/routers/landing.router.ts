// The merge queue (docs/merge-queue.md): land a loop's branch, read the queues
// and a loop's landings, and answer an entry that needs review. Viewers read;
// operators land, drop, re-queue and send back, as with the other controls.
import { z } from "zod";
import { cancelLanding, enqueueLanding, requeueLanding, sendBackToWork } from "../../loops/landing.service";
import { landingsOfLoop, listLandingQueues, readLandingQueue } from "../../loops/landing-views";
import { LANDING_STATUSES, setQueueStrategy } from "../../db/landing.repo";
import { roleProcedure, router } from "../trpc";

const id = z.string().min(1).max(100);
const reason = z.string().trim().max(2000).optional();
const operator = roleProcedure("operator");
const viewer = roleProcedure("viewer");

const check = z.object({
  name: z.string(),
  ok: z.boolean(),
  score: z.number(),
  reason: z.string(),
  failing: z.array(z.string()),
});
/** What a landing found, as far as people are shown it (an allow-list of the stored detail). */
const detail = z
  .object({
    kind: z.string().optional(),
    conflicts: z.array(z.string()).optional(),
    diff: z.string().optional(),
    checks: z.array(check).optional(),
    notes: z.array(z.string()).optional(),
    evidenceMs: z.number().optional(),
  })
  .nullable()
  .catch(null);

export const landingEntryOutput = z.object({
  id: z.string(),
  queueId: z.string(),
  loopId: z.string(),
  repo: z.string(),
  targetBranch: z.string(),
  strategy: z.string(),
  sourceBranch: z.string(),
  sourceSha: z.string(),
  status: z.enum(LANDING_STATUSES),
  position: z.number().nullable(),
  reason: z.string().nullable(),
  detail,
  baseSha: z.string().nullable(),
  resultSha: z.string().nullable(),
  landedSha: z.string().nullable(),
  attempts: z.number(),
  sentBackLoopId: z.string().nullable(),
  actor: z.string(),
  requestReason: z.string().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
});

const queueOutput = z.object({
  id: z.string(),
  repo: z.string(),
  targetBranch: z.string(),
  strategy: z.string(),
  busy: z.boolean(),
  open: z.array(landingEntryOutput),
  history: z.array(landingEntryOutput),
});

export const landingRouter = router({
  /** Queues the loop's branch for landing onto `targetBranch` (default: the checkout's branch). */
  land: operator
    .input(z.object({ loopId: id, targetBranch: z.string().trim().max(200).optional(), reason }))
    .output(landingEntryOutput)
    .mutation(({ ctx, input }) =>
      enqueueLanding(ctx.services, {
        loopId: input.loopId,
        actor: ctx.actor,
        reason: input.reason ?? null,
        ...(input.targetBranch ? { targetBranch: input.targetBranch } : {}),
      }),
    ),
  cancel: operator
    .input(z.object({ id, reason }))
    .output(landingEntryOutput)
    .mutation(({ ctx, input }) =>
      cancelLanding(ctx.services, input.id, { actor: ctx.actor, reason: input.reason ?? null }),
    ),
  requeue: operator
    .input(z.object({ id, reason }))
    .output(landingEntryOutput)
    .mutation(({ ctx, input }) =>
      requeueLanding(ctx.services, input.id, { actor: ctx.actor, reason: input.reason ?? null }),
    ),
  /** A new iteration on the target's head, told the conflict or the failing tests (a fork of the loop). */
  sendBack: operator
    .input(z.object({ id, reason }))
    .output(z.object({ entry: landingEntryOutput, loopId: z.string() }))
    .mutation(({ ctx, input }) =>
      sendBackToWork(ctx.services, input.id, { actor: ctx.actor, reason: input.reason ?? null }),
    ),
  /** How entries of a queue are brought onto the target: rebase (default) or a merge commit. */
  setStrategy: operator
    .input(z.object({ queueId: id, strategy: z.enum(["rebase", "merge"]) }))
    .output(z.object({ id: z.string(), strategy: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const q = await setQueueStrategy(ctx.services.db.prisma, input.queueId, input.strategy);
      return { id: q.id, strategy: q.strategy };
    }),
  queues: viewer
    .input(z.object({ repo: z.string().max(1000).optional() }).default({}))
    .output(
      z.array(
        z.object({
          id: z.string(),
          repo: z.string(),
          targetBranch: z.string(),
          strategy: z.string(),
          open: z.number(),
        }),
      ),
    )
    .query(({ ctx, input }) => listLandingQueues(ctx.services.db.prisma, input.repo)),
  queue: viewer
    .input(z.object({ id }))
    .output(queueOutput)
    .query(({ ctx, input }) => readLandingQueue(ctx.services.db.prisma, input.id)),
  ofLoop: viewer
    .input(z.object({ loopId: id }))
    .output(z.array(landingEntryOutput))
    .query(({ ctx, input }) => landingsOfLoop(ctx.services.db.prisma, input.loopId)),
});
