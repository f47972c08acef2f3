// Operator controls: each one validated, stored with who and why, and applied
// by the runtime at its next safe point.
import { z } from "zod";
import { loopRowStatuses } from "../../loops/vocabulary";
import { requestControl, type ControlCommand } from "../../loops/loop-controls.service";
import { forkLoop, startLoop } from "../../loops/loop-create.service";
import { removeLoopWorktree, rollbackLoop } from "../../loops/loop-workspace.service";
import type { Actor } from "../../auth/actor";
import type { ApiContext } from "../context";
import { router, operatorProcedure as operator } from "../trpc";

const target = z.object({ id: z.string().min(1).max(100), reason: z.string().trim().max(2000).optional() });
const comment = z.string().trim().max(4000);

/** What every stored control answers: one outcome, one audit entry. */
export const controlOutput = z.object({
  requestId: z.string(),
  outcome: z.enum(["applied", "stored"]),
  note: z.string(),
  status: z.enum(loopRowStatuses),
});
const control = operator.output(controlOutput);

type Ctx = ApiContext & { actor: Actor };
const send = (ctx: Ctx, input: z.infer<typeof target>, command: ControlCommand) =>
  requestControl(ctx.services, input.id, command, { actor: ctx.actor, reason: input.reason ?? null });

export const loopControlsRouter = router({
  start: operator
    .input(target)
    .output(z.object({ id: z.string(), changed: z.boolean() }))
    .mutation(({ ctx, input }) =>
      startLoop(ctx.services, input.id, { actor: ctx.actor, reason: input.reason ?? null }),
    ),
  interrupt: control.input(target).mutation(({ ctx, input }) => send(ctx, input, { kind: "interrupt" })),
  kill: control.input(target).mutation(({ ctx, input }) => send(ctx, input, { kind: "kill" })),
  resume: control.input(target).mutation(({ ctx, input }) => send(ctx, input, { kind: "resume" })),
  forceHandoff: control.input(target).mutation(({ ctx, input }) => send(ctx, input, { kind: "force_handoff" })),
  terminate: control.input(target).mutation(({ ctx, input }) => send(ctx, input, { kind: "terminate" })),
  nudge: control
    .input(target.extend({ message: z.string().trim().min(1, "a nudge needs a message").max(4000) }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "nudge", message: input.message })),
  approve: control
    .input(target.extend({ comment: comment.optional() }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "approve", comment: input.comment })),
  reject: control
    .input(target.extend({ comment: comment.optional() }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "reject", comment: input.comment })),
  requestChanges: control
    .input(target.extend({ comment: comment.min(1, "say what should change") }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "request_changes", comment: input.comment })),
  /** The operator's answer to the agent's question; an empty message continues without one. CONFLICT unless the loop waits for an answer. */
  answer: control
    .input(target.extend({ message: z.string().trim().max(4000).default("") }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "answer", message: input.message })),
  updateLimits: control
    .input(target.extend({ patch: z.record(z.string(), z.unknown()) }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "update_limits", patch: input.patch })),
  /** Rolls the files back to an iteration's snapshot as a new commit (the loop must not be running). */
  rollback: operator
    .input(target.extend({ iteration: z.number().int().min(1) }))
    .output(z.object({ iteration: z.number(), sha: z.string(), commit: z.string() }))
    .mutation(({ ctx, input }) =>
      rollbackLoop(ctx.services, input.id, input.iteration, { actor: ctx.actor, reason: input.reason ?? null }),
    ),
  /** Removes an ended loop's worktree folder; its branch and commits stay. */
  removeWorktree: operator
    .input(target)
    .output(z.object({ dir: z.string(), branch: z.string() }))
    .mutation(({ ctx, input }) =>
      removeLoopWorktree(ctx.services, input.id, { actor: ctx.actor, reason: input.reason ?? null }),
    ),
  fork: operator
    .input(
      target.extend({
        iteration: z.number().int().min(0),
        start: z.boolean().default(true),
        /** Made once per fork the caller means: a repeated request (a double click) makes one fork. */
        requestId: z.string().uuid().optional(),
      }),
    )
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) =>
      forkLoop(
        ctx.services,
        input.id,
        input.iteration,
        input.start,
        { actor: ctx.actor, reason: input.reason ?? null },
        input.requestId,
      ),
    ),
});
