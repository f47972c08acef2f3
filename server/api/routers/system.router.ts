import { getHealth } from "../../system/health.service";
import { publicProcedure, router } from "../trpc";
import { healthOutput } from "./admin.types";

export const systemRouter = router({
  health: publicProcedure.output(healthOutput).query(({ ctx }) => getHealth(ctx.db, process.cwd())),
});
