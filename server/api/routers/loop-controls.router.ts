// Operator controls: each one validated, stored with who and why, and applied
// by the runtime at its next safe point.
import { z } from "zod";
import { requestControl, type ControlCommand } from "../../loops/loop-controls.service";
import { forkLoop, startLoop } from "../../loops/loop-create.service";
import type { Actor } from "../actor";
import type { ApiContext } from "../context";
import { roleProcedure, router } from "../trpc";

const target = z.object({ id: z.string().min(1).max(100), reason: z.string().trim().max(2000).optional() });
const comment = z.string().trim().max(4000);
const operator = roleProcedure("operator");

type Ctx = ApiContext & { actor: Actor };
const send = (ctx: Ctx, input: z.infer<typeof target>, command: ControlCommand) =>
  requestControl(ctx.services, input.id, command, { actor: ctx.actor, reason: input.reason ?? null });

export const loopControlsRouter = router({
  start: operator
    .input(target)
    .mutation(({ ctx, input }) => startLoop(ctx.services, input.id, { actor: ctx.actor, reason: input.reason ?? null })),
  interrupt: operator.input(target).mutation(({ ctx, input }) => send(ctx, input, { kind: "interrupt" })),
  kill: operator.input(target).mutation(({ ctx, input }) => send(ctx, input, { kind: "kill" })),
  resume: operator.input(target).mutation(({ ctx, input }) => send(ctx, input, { kind: "resume" })),
  forceHandoff: operator.input(target).mutation(({ ctx, input }) => send(ctx, input, { kind: "force_handoff" })),
  terminate: operator.input(target).mutation(({ ctx, input }) => send(ctx, input, { kind: "terminate" })),
  nudge: operator
    .input(target.extend({ message: z.string().trim().min(1, "a nudge needs a message").max(4000) }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "nudge", message: input.message })),
  approve: operator
    .input(target.extend({ comment: comment.optional() }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "approve", comment: input.comment })),
  reject: operator
    .input(target.extend({ comment: comment.optional() }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "reject", comment: input.comment })),
  requestChanges: operator
    .input(target.extend({ comment: comment.min(1, "say what should change") }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "request_changes", comment: input.comment })),
  updateLimits: operator
    .input(target.extend({ patch: z.record(z.string(), z.unknown()) }))
    .mutation(({ ctx, input }) => send(ctx, input, { kind: "update_limits", patch: input.patch })),
  fork: operator
    .input(target.extend({ iteration: z.number().int().min(0), start: z.boolean().default(true) }))
    .mutation(({ ctx, input }) =>
      forkLoop(ctx.services, input.id, input.iteration, input.start, { actor: ctx.actor, reason: input.reason ?? null }),
    ),
});
