import { getHealth } from "../../system/health.service";
import { publicProcedure, router } from "../trpc";

export const systemRouter = router({
  health: publicProcedure.query(({ ctx }) => getHealth(ctx.db, process.cwd())),
});
