import { z } from "zod";
import { iterationPage } from "../../db/iterations.repo";
import { listLoopSummaries } from "../../loops/loop-list.service";
import { getLoopDefinition, getLoopDetail } from "../../loops/loop-detail.service";
import { loopTemplates } from "../../loops/loop-templates";
import { redactLoopForShare } from "../../share/share-links.service";
import { createLoopFromDefinition } from "../../loops/loop-create.service";
import { loopDefinitionSchema } from "../../loops/loop-definition";
import { roleProcedure, router } from "../trpc";
import { loopControlsRouter } from "./loop-controls.router";

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
    .mutation(({ ctx, input }) => {
      const { start, ...definition } = input;
      return createLoopFromDefinition(ctx.services, definition, start, { actor: ctx.actor, reason: "created from the API" });
    }),
  formSchema: viewer.query(() => formSchema),
  list: viewer.input(loopListInput).query(({ ctx, input }) => listLoopSummaries(ctx.db, input)),
  byId: viewer.input(z.object({ id: loopId })).query(({ ctx, input }) => getLoopDetail(ctx.db, input.id, ctx.services.engine.now())),
  iterations: viewer
    .input(z.object({ id: loopId, beforeNumber: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(100).default(20) }))
    .query(async ({ ctx, input }) => {
      const items = await iterationPage(ctx.db.prisma, input.id, input);
      return { items, nextBeforeNumber: items.length === input.limit ? items[items.length - 1]?.number : undefined };
    }),
  /** Starting points for the New-loop form (complete, valid definitions). */
  templates: viewer.query(() => loopTemplates()),
  /** A loop's stored definition for "clone", secrets blanked (redactedPaths says which to ask again). */
  definition: viewer.input(z.object({ id: loopId })).query(({ ctx, input }) => getLoopDefinition(ctx.db, input.id)),
  /** Exactly what `share.view` would show for this loop: the redaction preview before a link is created. */
  sharePreview: roleProcedure("operator")
    .input(z.object({ id: loopId }))
    .query(async ({ ctx, input }) => redactLoopForShare(await getLoopDetail(ctx.db, input.id, ctx.services.engine.now()))),
  ...loopControlsRouter._def.record,
});
