import { getEnv } from "../../env";
import { getHealth } from "../../system/health.service";
import { storageHealth } from "../../system/storage-health";
import { publicProcedure, router } from "../trpc";
import { healthOutput, storageOutput } from "./admin.types";

export const systemRouter = router({
  health: publicProcedure.output(healthOutput).query(({ ctx }) => getHealth(ctx.db, process.cwd())),
  // Every page's layout asks (no database read), to show a banner when the data folder cannot take writes.
  storage: publicProcedure.output(storageOutput).query(() => storageHealth(getEnv().RALPH_DATA_DIR)),
});
