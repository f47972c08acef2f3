import { z } from "zod";
import { listLoopSummaries } from "../../loops/loop-list.service";
import { roleProcedure, router } from "../trpc";

export const loopListInput = z.object({
  status: z.array(z.string().min(1)).max(20).optional(),
  agentKind: z.array(z.string().min(1)).max(10).optional(),
  text: z.string().trim().max(200).optional(),
  sort: z.enum(["updated", "created", "cost", "iteration"]).default("updated"),
  direction: z.enum(["asc", "desc"]).default("desc"),
  limit: z.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).optional(),
});

export const loopsRouter = router({
  list: roleProcedure("viewer")
    .input(loopListInput)
    .query(({ ctx, input }) => listLoopSummaries(ctx.db, input)),
});
