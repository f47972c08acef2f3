import { z } from "zod";
import { describeCheck, runCheckOnce } from "../../loops/check-preview.service";
import { roleProcedure, router } from "../trpc";
import { checkDescriptionOutput, checkRunOutput } from "./misc.types";

// The check is validated by the service with the scorer's own schema, so its errors read like the form's.
const input = z.object({
  workspace: z.string().max(4096),
  check: z.record(z.string(), z.unknown()),
  // The loop's isolation and setup command, so the check runs where the loop's will.
  isolation: z.enum(["worktree", "in-place"]).optional(),
  setup: z.record(z.string(), z.unknown()).optional(),
});

export const checksRouter = router({
  /** The runner a command check detects in a workspace and the report it will read. */
  detect: roleProcedure("operator")
    .input(input)
    .output(checkDescriptionOutput)
    .query(({ input }) => describeCheck(input)),
  /** Runs the check once in the workspace, as an iteration would, and returns its score and test evidence. */
  run: roleProcedure("operator")
    .input(input)
    .output(checkRunOutput)
    .mutation(({ ctx, input, signal }) => runCheckOnce(ctx.db, input, { actor: ctx.actor }, signal)),
});
