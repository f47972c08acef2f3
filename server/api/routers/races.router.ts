// Races (docs/races.md): start several contender loops on one goal, compare them, pick or let the
// first verified win; cost per verified task over a period.
import { z } from "zod";
import { createRace } from "../../loops/race-create.service";
import { raceCompare, raceList } from "../../loops/race-compare.service";
import { pickRaceWinner } from "../../loops/race-settle.service";
import { costPerVerifiedReport } from "../../loops/cost-per-verified.service";
import { raceDefinitionSchema } from "../../loops/race-definition";
import { roleProcedure, router, viewerProcedure as viewer } from "../trpc";
import { idInput as id } from "./id-inputs";
import {
  costReportOutput,
  raceCompareOutput,
  raceCreatedOutput,
  raceDecisionOutput,
  raceListOutput,
} from "./races.types";

const DAY_MS = 86_400_000;

export const racesRouter = router({
  create: roleProcedure("operator")
    .input(raceDefinitionSchema.extend({ start: z.boolean().default(true) }))
    .output(raceCreatedOutput)
    .mutation(({ ctx, input }) => {
      const { start, ...race } = input;
      return createRace(ctx.services, race, start, { actor: ctx.actor, reason: "race created from the API" });
    }),
  list: viewer
    .input(z.object({ limit: z.number().int().min(1).max(100).default(25) }).default({ limit: 25 }))
    .output(raceListOutput)
    .query(({ ctx, input }) => raceList(ctx.db, input.limit)),
  /** The compare view: contenders side by side. */
  byId: viewer
    .input(z.object({ id }))
    .output(raceCompareOutput)
    .query(({ ctx, input }) => raceCompare(ctx.db, input.id)),
  /** The operator picks the winner (a verified contender): the others stop, the winner goes to landing. */
  pick: roleProcedure("operator")
    .input(z.object({ id, loopId: id, reason: z.string().trim().max(2000).optional() }))
    .output(raceDecisionOutput)
    .mutation(({ ctx, input }) =>
      pickRaceWinner(ctx.services, input.id, input.loopId, { actor: ctx.actor, reason: input.reason ?? null }),
    ),
  /** Cost per verified task of the loops created in a period (default: the last 30 days), per race, agent, account. */
  costPerVerified: viewer
    .input(
      z
        .object({
          fromMs: z.number().int().nonnegative().optional(),
          toMs: z.number().int().nonnegative().optional(),
          raceId: id.optional(),
        })
        .default({}),
    )
    .output(costReportOutput)
    .query(({ ctx, input }) => {
      const to = input.toMs ?? ctx.services.engine.now() + 1;
      const from = input.fromMs ?? to - 30 * DAY_MS;
      return costPerVerifiedReport(ctx.db, { from: new Date(from), to: new Date(to), raceId: input.raceId });
    }),
});
