import { z } from "zod";
import type { AgentProgressReport, TokenUsage } from "../engine";
import { executionPhases } from "../engine";

const strings = z.array(z.string()).optional();

/** The structured progress an agent may report (generic JSON line or webhook reply). */
export const progressReportSchema = z.object({
  phase: z.enum(executionPhases).optional(),
  completedItems: strings,
  pendingItems: strings,
  blockedItems: z.array(z.object({ item: z.string(), reason: z.string() })).optional(),
  decisions: strings,
  assumptions: strings,
  constraints: strings,
  nextSteps: strings,
  phaseComplete: z.boolean().optional(),
  requestHandoff: z.boolean().optional(),
  contextUtilization: z.number().min(0).max(1).optional(),
  testResults: z
    .object({
      passed: z.number().int().min(0),
      failed: z.number().int().min(0),
      skipped: z.number().int().min(0).optional(),
    })
    .optional(),
}) satisfies z.ZodType<AgentProgressReport>;

const count = z.number().int().min(0);

/** `{input, output, cache?}` or the providers' snake_case names. */
export const usageSchema = z
  .union([
    z.object({ input: count, output: count, cache: count.optional() }),
    z.object({
      input_tokens: count,
      output_tokens: count,
      cache_read_input_tokens: count.optional(),
      cached_input_tokens: count.optional(),
    }),
  ])
  .transform((u): TokenUsage =>
    "input" in u
      ? { input: u.input, output: u.output, cache: u.cache ?? 0 }
      : {
          input: u.input_tokens,
          output: u.output_tokens,
          cache: u.cache_read_input_tokens ?? u.cached_input_tokens ?? 0,
        },
  );
