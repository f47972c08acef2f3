import { z } from "zod";
import { listLoopSummaries } from "../../loops/loop-list.service";
import { loopListSummary } from "../../loops/loop-summary.service";
import { getIterationPage, getLoopDefinition, getLoopDetail, getSeriesWindow } from "../../loops/loop-detail.service";
import { loopTemplates } from "../../loops/loop-templates";
import { iterationCodeDiffOf, loopPatchOf } from "../../loops/loop-workspace.service";
import { sharedLoopDetail } from "../../share/share-links.service";
import { redactFreeText } from "../../share/free-text-redaction";
import { createLoopFromDefinition } from "../../loops/loop-create.service";
import { preflightDefinition } from "../../loops/loop-preflight.service";
import { secretChoices } from "../../loops/secret-choices.service";
import { loopDefinitionSchema } from "../../loops/loop-definition";
import { roleProcedure, router } from "../trpc";
import { loopControlsRouter } from "./loop-controls.router";
import {
  createdLoopOutput,
  definitionOutput,
  formSchemaOutput,
  iterationPageOutput,
  loopDetailOutput,
  loopListOutput,
  loopSummaryOutput,
  secretChoicesOutput,
  seriesWindowOutput,
  sharedDetailOutput,
  templatesOutput,
  usageLimitsOutput,
  clearedLimitOutput,
} from "./loops.types";
import { usageLimitOverview } from "../../loops/usage-limits.service";
import { clearLimitWindow } from "../../loops/usage-limit-clear.service";
import { liveIterationOutput } from "./live.types";
import { getLiveIteration } from "../../loops/live-iteration.service";
import { hasRole } from "../../auth/actor";

const viewer = roleProcedure("viewer");
const loopId = z.string().min(1).max(100);

export const loopListInput = z.object({
  status: z.array(z.string().min(1)).max(20).optional(),
  agentKind: z.array(z.string().min(1)).max(10).optional(),
  text: z.string().trim().max(200).optional(),
  sort: z.enum(["updated", "created", "cost", "iteration"]).default("updated"),
  direction: z.enum(["asc", "desc"]).default("desc"),
  limit: z.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).optional(),
});

// The New-loop form is generated from this, the same schema `create` validates with.
const formSchema = z.toJSONSchema(loopDefinitionSchema, { io: "input", unrepresentable: "any" });

export const loopsRouter = router({
  create: roleProcedure("operator")
    .input(loopDefinitionSchema.extend({ start: z.boolean().default(true) }))
    .output(createdLoopOutput)
    .mutation(({ ctx, input }) => {
      const { start, ...definition } = input;
      return createLoopFromDefinition(ctx.services, definition, start, {
        actor: ctx.actor,
        reason: "created from the API",
      });
    }),
  /** What would stop this definition before its first iteration: the CLI on the server, the secrets it needs. */
  preflight: roleProcedure("operator")
    .input(loopDefinitionSchema)
    .output(
      z.object({
        ok: z.boolean(),
        checks: z.array(
          z.object({
            id: z.string(),
            label: z.string(),
            status: z.enum(["ok", "warning", "problem", "unknown"]),
            message: z.string(),
          }),
        ),
      }),
    )
    .query(({ ctx, input }) => preflightDefinition(ctx.db, input, { actor: ctx.actor, reason: null })),
  /** The New-loop form's stored-secret picker: per secret the agent needs, the stored secrets this user may pick. */
  secretChoices: roleProcedure("operator")
    .input(loopDefinitionSchema.pick({ agent: true, fallbackAgent: true }))
    .output(secretChoicesOutput)
    .query(({ ctx, input }) => secretChoices(ctx.db, input, { actor: ctx.actor, reason: null })),
  formSchema: viewer.output(formSchemaOutput).query(() => formSchema),
  list: viewer
    .input(loopListInput)
    .output(loopListOutput)
    .query(({ ctx, input }) => listLoopSummaries(ctx.db, input)),
  /** The list's summary bar: counts by status, spend today, approvals waiting, loops needing attention. */
  summary: viewer
    .input(z.object({ dayStartMs: z.number().int().nonnegative().optional() }).default({}))
    .output(loopSummaryOutput)
    .query(({ ctx, input }) => loopListSummary(ctx.db, ctx.services.engine.now(), input.dayStartMs)),
  /** Provider usage-limit windows shared by loops on one account, with the loops waiting on each. */
  usageLimits: viewer
    .output(usageLimitsOutput)
    .query(({ ctx }) => usageLimitOverview(ctx.db, new Date(ctx.services.engine.now()))),
  /** An admin clears an account's window (audited with who and why); the loops waiting on it are sent "resume". */
  clearUsageLimit: roleProcedure("admin")
    .input(
      z.object({
        account: z.string().trim().min(1).max(500),
        reason: z.string().trim().min(1, "say why the window no longer holds").max(2000),
      }),
    )
    .output(clearedLimitOutput)
    .mutation(({ ctx, input }) =>
      clearLimitWindow(ctx.services, input.account, { actor: ctx.actor, reason: input.reason }),
    ),
  byId: viewer
    .input(z.object({ id: loopId }))
    .output(loopDetailOutput)
    .query(({ ctx, input }) =>
      getLoopDetail(ctx.db, input.id, ctx.services.engine.now(), { canOperate: hasRole(ctx.actor, "operator") }),
    ),
  /** The iteration in flight: output tail, tool calls, heartbeat, phase, health (live rows folded). */
  live: viewer
    .input(z.object({ id: loopId }))
    .output(liveIterationOutput)
    .query(({ ctx, input }) => getLiveIteration(ctx.db, input.id)),
  /** The chart series of iterations `from`..`to`: zooming in, at full resolution up to SERIES_POINTS iterations. */
  series: viewer
    .input(
      z
        .object({ id: loopId, from: z.number().int().min(1), to: z.number().int().min(1) })
        .refine((w) => w.to >= w.from, { message: "to must not be before from", path: ["to"] }),
    )
    .output(seriesWindowOutput)
    .query(({ ctx, input }) => getSeriesWindow(ctx.db, input.id, { from: input.from, to: input.to })),
  iterations: viewer
    .input(
      z.object({
        id: loopId,
        beforeNumber: z.number().int().min(1).optional(),
        limit: z.number().int().min(1).max(100).default(20),
      }),
    )
    .output(iterationPageOutput)
    .query(({ ctx, input }) => getIterationPage(ctx.db, input.id, input)),
  /** One iteration's code diff (unified, capped, redacted when it was taken). */
  iterationDiff: viewer
    .input(z.object({ id: loopId, number: z.number().int().min(1) }))
    .output(
      z.object({
        number: z.number(),
        attempt: z.number(),
        sha: z.string().nullable(),
        diff: z.string().nullable(),
        truncated: z.boolean(),
        error: z.string().nullable(),
      }),
    )
    .query(({ ctx, input }) => iterationCodeDiffOf(ctx.db, input.id, input.number)),
  /** The loop's work against its baseline as a `.patch` (secrets scrubbed); what viewers may read anyway. */
  patch: viewer
    .input(z.object({ id: loopId }))
    .output(z.object({ fileName: z.string(), patch: z.string() }))
    .query(({ ctx, input }) => loopPatchOf(ctx.db, input.id)),
  /** Starting points for the New-loop form (complete, valid definitions). */
  templates: viewer.output(templatesOutput).query(() => loopTemplates()),
  /** A loop's stored definition for "clone", secrets blanked (redactedPaths says which to ask again). */
  definition: viewer
    .input(z.object({ id: loopId }))
    .output(definitionOutput)
    .query(({ ctx, input }) => getLoopDefinition(ctx.db, input.id)),
  /** Exactly what `share.view` would show for this loop: the redaction preview before a link is created. */
  sharePreview: roleProcedure("operator")
    .input(z.object({ id: loopId }))
    .output(sharedDetailOutput)
    .query(({ ctx, input }) => sharedLoopDetail(ctx.db, input.id, ctx.services.engine.now())),
  /** An operator's free text (a terminate reason, a comment) as shared reports will show it. */
  freeTextPreview: roleProcedure("operator")
    .input(z.object({ text: z.string().max(10_000) }))
    .output(z.object({ text: z.string(), redacted: z.array(z.object({ kind: z.string(), count: z.number() })) }))
    .query(({ input }) => redactFreeText(input.text)),
  /** Operator controls: `loops.controls.<name>`. */
  controls: loopControlsRouter,
});
