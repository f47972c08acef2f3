// Permission prompts inside an iteration (Claude Code's --permission-prompt-tool, docs/permissions.md):
// viewers read a loop's prompts; operators approve or deny a pending one before its deadline.
import { z } from "zod";
import { answerPermission, permissionPromptsView } from "../../loops/permission-prompts.service";
import { roleProcedure, router } from "../trpc";

const id = z.string().min(1).max(100);

const promptOutput = z.object({
  id: z.string(),
  loopId: z.string(),
  iteration: z.number(),
  attempt: z.number(),
  toolName: z.string(),
  summary: z.string(),
  reason: z.string(),
  risk: z.string(),
  status: z.string().describe("pending | allowed | denied"),
  requestedAt: z.date(),
  deadlineAt: z.date(),
  defaultAction: z.string().describe("allow | deny: what the deadline applies"),
  decidedAt: z.date().nullable(),
  decidedBy: z.string().nullable(),
  byDefault: z.boolean(),
  message: z.string().nullable(),
});

const policyOutput = z.object({
  tools: z.array(z.string()),
  commandPatterns: z.array(z.string()),
  pathsOutsideWorkspace: z.boolean(),
  risk: z.string().describe("low | medium | high"),
  deadlineSeconds: z.number(),
  defaultAction: z.enum(["allow", "deny"]),
});

export const permissionsRouter = router({
  /** Whether the loop's agent can ask, its policy, and its prompts (pending and decided), newest first. */
  ofLoop: roleProcedure("viewer")
    .input(z.object({ loopId: id }))
    .output(
      z.object({
        available: z.boolean(),
        note: z.string().nullable(),
        policy: policyOutput.nullable(),
        prompts: z.array(promptOutput),
      }),
    )
    .query(({ ctx, input }) => permissionPromptsView(ctx.services, input.loopId)),
  /** Approves (allow) or denies a pending prompt; refused once it is decided or its deadline has passed. */
  answer: roleProcedure("operator")
    .input(
      z.object({
        id,
        decision: z.enum(["allow", "deny"]),
        message: z.string().trim().max(2000).optional(),
      }),
    )
    .output(promptOutput)
    .mutation(({ ctx, input }) =>
      answerPermission(
        ctx.services,
        input.id,
        { decision: input.decision, message: input.message ?? null },
        { actor: ctx.actor, reason: input.message ?? null },
      ).then(({ input: _input, ...row }) => row),
    ),
});
