import { z } from "zod";

export const demoAgentSchema = z
  .object({
    kind: z.literal("demo"),
    seed: z.number().int().default(42).describe("Seed: the same seed replays the same run"),
    delayMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(0)
      .describe("Pretend work time per iteration (ms), to watch live charts"),
    stepsToComplete: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(6)
      .describe("Productive iterations needed to finish (plateaus come on top)"),
    failureRate: z.number().min(0).max(0.9).default(0.12).describe("Share of calls that fail like a flaky provider"),
    earlyClaimRate: z.number().min(0).max(1).default(0.35).describe("Chance of claiming done before the work is done"),
    usageLimitAt: z
      .array(z.number().int().min(1))
      .max(50)
      .default([])
      .describe("Iterations that hit a simulated provider usage limit (to try limits.onUsageLimit)"),
    usageLimitResetSeconds: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .default(120)
      .describe("When the simulated usage limit resets (seconds after it is hit)"),
    keywords: z
      .array(z.string().min(1))
      .optional()
      .describe("Terms the answer grows to cover (default: taken from the goal)"),
  })
  .describe("Demo agent (offline, no keys; labelled demo)");

export type DemoAgentConfig = z.output<typeof demoAgentSchema>;
