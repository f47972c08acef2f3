import { z } from "zod";

// Shared field builders keep the error wording identical across sections, so
// the UI can show them verbatim next to the generated form field.
// The label goes on the outermost schema (after .default), where form generators read it.
const fraction = (label: string, value: number) =>
  z.number().min(0, "must be within [0,1]").max(1, "must be within [0,1]").default(value).describe(label);
const nonNegative = (label: string, value: number) =>
  z.number().min(0, "must not be negative").default(value).describe(label);
const nonNegativeInt = (label: string, value: number) =>
  z.number().int("must be a whole number").min(0, "must not be negative").default(value).describe(label);
/** One of `values`, `value` when left out. */
const choice = <const T extends readonly [string, ...string[]]>(values: T, value: T[number], label: string) =>
  z.enum(values).default(value).describe(label);
const positiveInt = (label: string, value: number, max?: number) => {
  const int = z.number().int("must be a whole number").min(1, "must be >= 1");
  return (max === undefined ? int : int.max(max, `must be <= ${max}`)).default(value).describe(label);
};

/** A section defaults to all its field defaults; its label moves to the wrapper. */
function section<T extends z.ZodType>(schema: T) {
  return schema.prefault({} as z.input<T>).describe(schema.description ?? "");
}

export const approvalDefaultActions = ["approve", "reject", "terminate"] as const;
const gateDefaults = (label: string, defaultAction: (typeof approvalDefaultActions)[number]) => ({
  deadline: nonNegative(`${label}: deadline (seconds, 0 = wait forever)`, 3600),
  defaultAction: choice(approvalDefaultActions, defaultAction, `${label}: action taken when the deadline passes`),
});

export const validationConfigSchema = z
  .object({
    enabled: z.boolean().default(true).describe("Score every output"),
    scorerNames: z.array(z.string().min(1)).default([]).describe("Scorers to use (empty = all)"),
    minScoreThreshold: fraction("Reflect when the mean score is below", 0.5),
    parallel: positiveInt("Scorers run at once", 4),
    timeout: nonNegative("Scorer timeout (seconds, 0 = none)", 0),
  })
  .describe("Analyze: scoring");

export const reflectionConfigSchema = z
  .object({
    enabled: z.boolean().default(true).describe("Reflect on weak or failed iterations"),
    level: z.enum(["low", "medium", "high"]).default("medium").describe("Reflection depth"),
    maxHistory: positiveInt("Reflections and scores kept in history", 50),
  })
  .describe("Learn: reflection");

export const stopConfigSchema = z
  .object({
    maxIterations: positiveInt("Maximum iterations", 10),
    timeout: nonNegative("Wall-clock limit (seconds, 0 = off)", 0),
    iterationTimeout: nonNegative(
      "Iteration time limit, all attempts and retries included (seconds, 0 = off); the agent's timeoutSeconds bounds one attempt",
      2700,
    ),
    maxCost: nonNegative("Cost limit in USD (0 = off)", 0),
    maxConsecutiveFailures: nonNegativeInt("Consecutive failures before stopping (0 = off)", 3),
    scoreThreshold: fraction("Stop successfully when the mean score reaches (0 = off)", 0),
    noProgressIterations: nonNegativeInt("Iterations without progress before stopping (0 = off)", 3),
    enableUserInterrupt: z.boolean().default(true).describe("Allow operators to interrupt or kill"),
  })
  .describe("Halt: stop conditions");

export const evidenceSources = ["verifier", "score", "validators"] as const;
export const completionConfigSchema = z
  .object({
    evidence: z
      .array(z.enum(evidenceSources))
      .default(["verifier", "score", "validators"])
      .describe("Evidence that can prove completion"),
    mode: choice(["any", "all"], "any", "Complete when any (or all) of the evidence checks that ran say so"),
    requireClaim: z.boolean().default(false).describe("Also require the agent to claim it is done"),
    allowNoEvidence: z
      .boolean()
      .default(false)
      .describe("Run with no evidence source: can never complete; stops on limits"),
    announce: z
      .boolean()
      .default(true)
      .describe("Tell the agent how to claim done (the signal below) and that the claim is checked"),
    // The Ralph convention by default; a tag (<done>SHIPPED</done>) is read as
    // a tag whatever its inner text, anything else as a literal phrase.
    signal: z
      .string()
      .trim()
      .min(3, "must be at least 3 characters")
      .max(200, "must be at most 200 characters")
      .default("<promise>COMPLETE</promise>")
      .describe("What the agent prints to claim done"),
  })
  .describe("Completion evidence");

export const questionPolicies = ["ask", "auto-answer", "ignore"] as const;
export const questionConfigSchema = z
  .object({
    // ask: the loop waits in needs_attention for the operator's answer;
    // auto-answer: the next input tells the agent to choose, say so and go on;
    // ignore: the question is recorded and nothing else happens.
    policy: choice(
      questionPolicies,
      "ask",
      "When the agent asks a question: wait for an answer, tell it to decide, or ignore it",
    ),
  })
  .describe("Agent questions");

export const retryConfigSchema = z
  .object({
    strategy: choice(["exponential", "fixed", "none"], "exponential", "Delay between attempts after an agent error"),
    minDelayMs: nonNegative("Exponential backoff: first delay (ms)", 1000),
    maxDelayMs: nonNegative("Exponential backoff: longest delay (ms)", 30000),
    fixedDelayMs: nonNegative("Fixed delay (ms)", 1000),
    maxAttempts: positiveInt("Attempts per iteration", 3),
    attemptTimeout: nonNegative("Agent call timeout (seconds, 0 = none)", 0),
  })
  .refine((r) => r.minDelayMs <= r.maxDelayMs, {
    message: "must be >= minDelayMs",
    path: ["maxDelayMs"],
  })
  .describe("Retry on agent errors");

export const verificationConfigSchema = z
  .object({
    // Unset means "on whenever a verifier is configured": configuring one and
    // then seeing "skipped: verification disabled" was the surprise to avoid.
    enabled: z
      .boolean()
      .optional()
      .describe("Ask the verifier whether the goal is met (default: on when a verifier is configured)"),
    answerMaxChars: positiveInt("Answer characters sent to the verifier", 4000, 200_000),
  })
  .describe("Verify: outer verification");

export const handoffConfigSchema = z
  .object({
    contextThreshold: fraction("Hand off above this context use", 0.7),
    tokenBudgetThreshold: fraction("Hand off above this token-budget use", 0.8),
    errorThreshold: nonNegativeInt("Hand off after consecutive errors (0 = off)", 3),
    onPhaseComplete: z.boolean().default(true).describe("Hand off when a phase completes"),
    contextWindowTokens: positiveInt("Agent context window (tokens)", 200000),
  })
  .describe("Fresh-context handoff");

export const breakerConfigSchema = z
  .object({
    failureThreshold: positiveInt("Agent errors that open the breaker", 5),
    cooldown: nonNegative("Open breaker cooldown (seconds)", 60),
  })
  .describe("Circuit breaker");

export const healthConfigSchema = z
  .object({
    stuckAfter: nonNegative("Stuck after no heartbeat or progress (seconds, 0 = off)", 600),
    nudgeInterval: nonNegative("Time between nudges (seconds)", 600),
    nudgesBeforeEscalation: nonNegativeInt("Nudges before escalating", 3),
    escalationTimeout: nonNegative("Escalation timeout before terminating (seconds)", 900),
    checkInterval: nonNegative("Watchdog check interval (seconds, 0 = off)", 30),
    failingAfterErrors: nonNegativeInt("Consecutive errors that mean failing (0 = off)", 10),
    breaker: section(breakerConfigSchema),
  })
  .describe("Health monitoring");

export const budgetConfigSchema = z
  .object({
    maxCostUsd: nonNegative("Budget in USD (0 = none)", 0),
    maxTokens: nonNegativeInt("Budget in tokens (0 = none)", 0),
    throttleAt: fraction("Throttle from this budget use", 0.8),
    denyAt: z.number().min(0, "must not be negative").default(1).describe("Deny from this budget use"),
    mode: z.enum(["enforce", "alert_only"]).default("enforce").describe("Enforce or only alert"),
    throttleBaseDelayMs: nonNegative("First throttle delay (ms)", 1000),
    throttleMaxDelayMs: nonNegative("Longest throttle delay (ms)", 60000),
  })
  .refine((b) => b.denyAt >= b.throttleAt, { message: "must be >= throttleAt", path: ["denyAt"] })
  .describe("Token economics");

export const approvalsConfigSchema = z
  .object({
    beforeCompletion: z
      .object({
        enabled: z.boolean().default(false).describe("Ask before completing"),
        ...gateDefaults("Before completion", "approve"),
      })
      .prefault({})
      .describe("Gate before completing"),
    budget: z
      .object({
        enabled: z.boolean().default(false).describe("Ask when budget use crosses a percentage"),
        percents: z
          .array(z.number().gt(0, "must be > 0").max(100, "must be <= 100"))
          .default([80])
          .describe("Budget percentages that open a gate"),
        ...gateDefaults("Budget", "reject"),
      })
      .prefault({})
      .describe("Gate on budget use"),
    periodic: z
      .object({
        every: nonNegativeInt("Ask every N iterations (0 = off)", 0),
        ...gateDefaults("Periodic", "approve"),
      })
      .prefault({})
      .describe("Gate every N iterations"),
  })
  .describe("Approval gates");

export const pacingConfigSchema = z
  .object({
    delayMs: nonNegative("Delay between iterations (ms)", 0),
    pollIntervalMs: positiveInt("Control poll interval while paused (ms)", 1000),
  })
  .describe("Pacing");

export const recordingConfigSchema = z
  .object({
    // Bounded: the kept output is stored per iteration and sent to every browser that opens it.
    maxOutputChars: positiveInt("Output characters kept per iteration", 100000, 2_000_000),
  })
  .describe("Recording");

export const usageLimitPolicies = ["wait", "stop", "fallback"] as const;
export const limitsConfigSchema = z
  .object({
    onUsageLimit: choice(
      usageLimitPolicies,
      "wait",
      "When the provider's usage limit is hit: wait for the reset, stop, or switch to the fallback agent",
    ),
    marginSeconds: nonNegative("Margin after the reset time (seconds)", 30),
    backoffSeconds: z
      .number()
      .min(1, "must be >= 1")
      .default(300)
      .describe("First wait when no reset time is given (seconds; doubles on each recurrence)"),
    maxBackoffSeconds: z.number().min(1, "must be >= 1").default(3600).describe("Longest backoff wait (seconds)"),
    maxWaits: positiveInt("Consecutive limit waits before the loop needs attention", 8),
    timeZone: z.string().trim().min(1).default("UTC").describe("Time zone of reset times the agent prints without one"),
  })
  .describe("Usage limits");

/** The next input's sections, in the order they appear after the goal (see next-input.ts). */
export const inputSections = [
  "Completion protocol",
  "Claim rejected",
  "Agent question",
  "Previous feedback",
  "Failing tests",
  "Validation",
  "Verifier",
  "Operator nudge",
  "Approval comment",
  "Health reminder",
  "Continuation",
] as const;

export const inputConfigSchema = z
  .object({
    // The template: which sections the next input may carry. The order is
    // fixed; an unknown section name is a config error, not silently dropped.
    sections: z
      .array(z.enum(inputSections))
      .default([...inputSections])
      .describe("Sections the next input carries after the goal"),
  })
  .describe("Next input");

export const alarmsConfigSchema = z
  .object({
    runaway: section(
      z
        .object({
          maxIterations: nonNegativeInt("Runaway: more iterations than this within the window (0 = off)", 60),
          windowSeconds: z
            .number()
            .min(1, "must be >= 1")
            .max(3600, "must be at most an hour")
            .default(60)
            .describe("Runaway window (seconds)"),
          action: z.enum(["alert", "pause"]).default("alert").describe("On a runaway: alert, or alert and pause"),
        })
        .describe("Runaway alarm"),
    ),
    silentAfterSeconds: nonNegative("Silent agent: no output or heartbeat for this long (seconds, 0 = off)", 120),
    maxSpendPerHourUsd: nonNegative("Spend rate: more than this many USD within an hour (0 = off)", 0),
  })
  .describe("Alarms (judged on the server)");

export const loopConfigSchema = z.object({
  input: section(inputConfigSchema),
  validation: section(validationConfigSchema),
  reflection: section(reflectionConfigSchema),
  stop: section(stopConfigSchema),
  completion: section(completionConfigSchema),
  question: section(questionConfigSchema),
  retry: section(retryConfigSchema),
  verification: section(verificationConfigSchema),
  handoff: section(handoffConfigSchema),
  health: section(healthConfigSchema),
  budget: section(budgetConfigSchema),
  approvals: section(approvalsConfigSchema),
  pacing: section(pacingConfigSchema),
  recording: section(recordingConfigSchema),
  limits: section(limitsConfigSchema),
  alarms: section(alarmsConfigSchema),
});

export type LoopConfigInput = z.input<typeof loopConfigSchema>;
export type LoopConfig = z.output<typeof loopConfigSchema>;
export type ApprovalDefaultAction = (typeof approvalDefaultActions)[number];
export type EvidenceSource = (typeof evidenceSources)[number];
export type QuestionPolicy = (typeof questionPolicies)[number];

export class LoopConfigError extends Error {
  constructor(readonly issues: readonly string[]) {
    super(`Invalid loop config: ${issues.join("; ")}`);
    this.name = "LoopConfigError";
  }
}

export function formatConfigIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return path ? `${path} ${issue.message}` : issue.message;
  });
}

/** Validates and fills defaults; throws LoopConfigError naming each bad field. */
export function parseLoopConfig(input: unknown = {}): LoopConfig {
  const parsed = loopConfigSchema.safeParse(input ?? {});
  if (!parsed.success) throw new LoopConfigError(formatConfigIssues(parsed.error));
  return parsed.data;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function deepMerge(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch === undefined ? base : patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) out[key] = deepMerge(base[key], value);
  return out;
}

/** Applies an operator's limit change; the result is re-validated as a whole. */
export function applyConfigPatch(config: LoopConfig, patch: unknown): LoopConfig {
  if (!isPlainObject(patch)) throw new LoopConfigError(["patch must be an object"]);
  return parseLoopConfig(deepMerge(config, patch));
}
