import { z } from "zod";
import { healthStates, interventionLevels, livePhases } from "../../loops/vocabulary";

/** `loops.live`: the iteration in flight, or null when none is (or it has not printed yet). */
export const liveIterationOutput = z
  .object({
    iteration: z.number().int(),
    agentId: z.string(),
    startedAt: z.number(),
    phase: z.enum(livePhases),
    heartbeatAt: z.number().nullable(),
    outputAt: z.number().nullable(),
    health: z.enum(healthStates),
    interventions: z.array(z.object({ level: z.enum(interventionLevels), message: z.string(), at: z.number() })),
    tools: z.array(z.object({ name: z.string(), at: z.number() })),
    lines: z.array(z.string()),
    skippedLines: z.number().int(),
    totalLines: z.number().int(),
    lastEventId: z.number().int(),
  })
  .nullable();
