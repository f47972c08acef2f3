import { z } from "zod";
import { listLoopSummaries } from "../../loops/loop-list.service";
import { loopListSummary } from "../../loops/loop-summary.service";
import { getIterationPage, getLoopDefinition, getLoopDetail, getSeriesWindow } from "../../loops/loop-detail.service";
import { iterationTranscriptOf } from "../../loops/iteration-transcript.service";
import { loopTemplates } from "../../loops/loop-templates";
import { iterationCodeDiffOf, loopPatchOf, loopProtectionOf } from "../../loops/loop-workspace.service";
import { sharedIterationPage, sharedLoopDetail } from "../../share/share-links.service";
import { redactFreeText } from "../../share/free-text-redaction";
import { createLoopFromDefinition } from "../../loops/loop-create.service";
import { preflightDefinition } from "../../loops/loop-preflight.service";
import { runPreflightChecks } from "../../loops/preflight-run.service";
import { loopEnvironmentOf } from "../../loops/loop-environment.service";
import { secretChoices } from "../../loops/secret-choices.service";
import { loopDefinitionSchema } from "../../loops/loop-definition";
import { roleProcedure, router, viewerProcedure as viewer } from "../trpc";
import { idInput as loopId } from "./id-inputs";
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
  sharedIterationPageOutput,
  templatesOutput,
  usageLimitsOutput,
  clearedLimitOutput,
  spendReconciliationOutput,
} from "./loops.types";
import { usageLimitOverview } from "../../loops/usage-limits.service";
import { clearLimitWindow } from "../../loops/usage-limit-clear.service";
import { liveIterationOutput } from "./live.types";
import { getLiveIteration } from "../../loops/live-iteration.service";
import { hasRole } from "../../auth/actor";
import { spendReconciliation } from "../../loops/spend-reconciliation.service";

// One preflight check's shape; the static preflight adds a proposal, the run adds the check's score.
const preflightCheck = z.object({
  id: z.string(),
  label: z.string(),
  status: z.enum(["ok", "warning", "problem", "unknown"]),
  message: z.string(),
});

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
          preflightCheck.extend({
            proposal: z
              .object({ worktreeinclude: z.array(z.string()).optional(), setup: z.array(z.string()).optional() })
              .optional(),
          }),
        ),
      }),
    )
    .query(({ ctx, input }) => preflightDefinition(ctx.db, input, { actor: ctx.actor, reason: null })),
  /** Runs the definition's command checks once where the loop's first check will run (a worktree prepared like the loop's). */
  preflightRun: roleProcedure("operator")
    .input(loopDefinitionSchema)
    .output(
      z.object({
        ok: z.boolean(),
        ranIn: z.enum(["worktree", "checkout"]).nullable(),
        note: z.string().nullable(),
        checks: z.array(preflightCheck.extend({ score: z.number().nullable() })),
      }),
    )
    .mutation(({ ctx, input, signal }) =>
      runPreflightChecks(ctx.db, input, { actor: ctx.actor, reason: null }, signal),
    ),
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
  /** One iteration's transcript lines (Claude Code, Codex events; compacted, capped, redacted when stored). */
  iterationTranscript: viewer
    .input(z.object({ id: loopId, number: z.number().int().min(1), attempt: z.number().int().min(1).optional() }))
    .output(z.object({ number: z.number(), attempt: z.number(), lines: z.array(z.string()), skipped: z.number() }))
    .query(({ ctx, input }) => iterationTranscriptOf(ctx.db, input.id, input.number, input.attempt)),
  /** The loop's work against its baseline as a `.patch` (secrets scrubbed); what viewers may read anyway. */
  patch: viewer
    .input(z.object({ id: loopId }))
    .output(z.object({ fileName: z.string(), patch: z.string() }))
    .query(({ ctx, input }) => loopPatchOf(ctx.db, input.id)),
  /** The loop's worktree environment: what .worktreeinclude copied, the submodules, the setup command's status and log. */
  environment: viewer
    .input(z.object({ id: loopId }))
    .output(
      z.object({
        status: z.enum(["ready", "failed", "pending", "none"]),
        included: z.array(z.string()),
        submodules: z.array(z.string()),
        setup: z
          .object({
            argv: z.array(z.string()),
            timeoutSeconds: z.number(),
            exitCode: z.number().nullable(),
            durationMs: z.number().nullable(),
            logTail: z.string().nullable(),
          })
          .nullable(),
      }),
    )
    .query(({ ctx, input }) => loopEnvironmentOf(ctx.db, input.id)),
  /** What the loop protects from its agent and why, and each check's baseline inventory in counts. */
  protection: viewer
    .input(z.object({ id: loopId }))
    .output(
      z.object({
        recorded: z.boolean(),
        deriveFromChecks: z.boolean(),
        unprotected: z.array(z.string()),
        baselineSha: z.string().nullable(),
        entries: z.array(z.object({ glob: z.string(), kind: z.enum(["tests", "config", "check"]), why: z.string() })),
        baselines: z.array(
          z.object({
            check: z.string(),
            perTest: z.boolean(),
            targets: z.number(),
            kept: z.number(),
            ran: z.number(),
            skipped: z.number(),
            note: z.string().nullable(),
          }),
        ),
      }),
    )
    .query(({ ctx, input }) => loopProtectionOf(ctx.db, input.id)),
  /** Starting points for the New-loop form (complete, valid definitions). */
  templates: viewer.output(templatesOutput).query(() => loopTemplates()),
  /** A loop's stored definition for "clone", secrets blanked (redactedPaths says which to ask again). */
  definition: viewer
    .input(z.object({ id: loopId }))
    .output(definitionOutput)
    .query(({ ctx, input }) => getLoopDefinition(ctx.db, input.id)),
  /** Reported vs recorded spend: every dollar an agent reported, and whether the loop's cost is the sum of its rows. */
  spendReconciliation: viewer
    .input(z.object({ id: loopId }))
    .output(spendReconciliationOutput)
    .query(({ ctx, input }) => spendReconciliation(ctx.db, input.id)),
  /** Exactly what `share.view` would show for this loop: the redaction preview before a link is created. */
  sharePreview: roleProcedure("operator")
    .input(z.object({ id: loopId }))
    .output(sharedDetailOutput)
    .query(({ ctx, input }) => sharedLoopDetail(ctx.db, input.id, ctx.services.engine.now())),
  /**
   * The report a signed-in user downloads from the loop page (JSON, Markdown): the very data a
   * share link shows, redacted the same way, so a file passed on says no more than a link would.
   */
  exportReport: viewer
    .input(z.object({ id: loopId }))
    .output(z.object({ report: sharedDetailOutput, last: sharedIterationPageOutput }))
    .query(async ({ ctx, input }) => ({
      report: await sharedLoopDetail(ctx.db, input.id, ctx.services.engine.now()),
      last: await sharedIterationPage(ctx.db, input.id, { limit: 1 }),
    })),
  /** An operator's free text (a terminate reason, a comment) as shared reports will show it. */
  freeTextPreview: roleProcedure("operator")
    .input(z.object({ text: z.string().max(10_000) }))
    .output(z.object({ text: z.string(), redacted: z.array(z.object({ kind: z.string(), count: z.number() })) }))
    .query(({ input }) => redactFreeText(input.text)),
  /** Operator controls: `loops.controls.<name>`. */
  controls: loopControlsRouter,
});
