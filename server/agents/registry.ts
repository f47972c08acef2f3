/**
 * Config in, engine ports out. The only place that knows every kind; the
 * runtime calls these with the loop's stored config and its dependencies.
 */
import type { z } from "zod";
import { formatConfigIssues } from "../engine";
import type { AgentPort, EnginePorts, ReflectorPort, ScorerPort, ValidatorFn, VerifierPort } from "../engine";
import { agentConfigSchema, reflectorConfigSchema, scorerConfigSchema, verifierConfigSchema } from "./agent.schema";
import { createCommandCheckScorer } from "./command-check.scorer";
import { createGradedCheckScorer } from "./evidence/graded-check";
import { createCommandAgent } from "./command.executor";
import { createCommandVerifier } from "./command.verifier";
import type { AgentDeps } from "./deps";
import { createDemoAgent } from "./demo.executor";
import { createJsonSchemaScorer, jsonSchemaValidator } from "./json-schema.scorer";
import { createKeywordScorer, keywordValidator } from "./keyword.scorer";
import { createLengthScorer, lengthValidator } from "./length.scorer";
import { createLlmJudgeScorer } from "./llm-judge.scorer";
import { createLlmAgent } from "./llm.executor";
import { createLlmReflector } from "./llm.reflector";
import { createLlmVerifier } from "./llm.verifier";
import { SecretRedactor } from "./redact";
import { createRegexScorer, regexValidator } from "./regex.scorer";
import { createRuleBasedReflector, type ScorerHints } from "./rule-based.reflector";
import type { ScorerConfig } from "./scorer.schema";
import { createToolCallsScorer, toolCallsConfigValidator } from "./tool-calls.scorer";
import { createWebhookAgent } from "./webhook.executor";

export type { AgentDeps } from "./deps";

export class AgentConfigError extends Error {
  constructor(
    readonly what: string,
    readonly issues: readonly string[],
  ) {
    super(`Invalid ${what} config: ${issues.join("; ")}`);
    this.name = "AgentConfigError";
  }
}

function parse<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new AgentConfigError(what, formatConfigIssues(result.error));
  return result.data;
}

export function createAgent(config: unknown, deps: AgentDeps): AgentPort {
  const parsed = parse(agentConfigSchema, config, "agent");
  switch (parsed.kind) {
    case "command":
      return createCommandAgent(parsed, deps);
    case "llm":
      return createLlmAgent(parsed, deps);
    case "webhook":
      return createWebhookAgent(parsed, deps);
    case "demo":
      return createDemoAgent(parsed, deps);
  }
}

export function parseScorerConfigs(configs: readonly unknown[]): ScorerConfig[] {
  const parsed = configs.map((c, i) => parse(scorerConfigSchema, c, `scorer ${i + 1}`));
  const names = new Set<string>();
  for (const c of parsed) {
    // Scores are keyed by name, so a duplicate would silently hide one of them.
    if (names.has(c.name)) throw new AgentConfigError("scorer", [`the name "${c.name}" is used twice`]);
    names.add(c.name);
  }
  return parsed;
}

/** Whether a scorer config scores (the mean score) and whether it validates (pass/fail). */
export const scores = (c: ScorerConfig) => !("role" in c) || c.role !== "validate";
export const validates = (c: ScorerConfig) => "role" in c && c.role !== "score";

export function createScorers(configs: readonly unknown[], deps: AgentDeps): ScorerPort[] {
  return parseScorerConfigs(configs)
    .filter(scores)
    .map((c) => {
      switch (c.kind) {
        case "keyword":
          return createKeywordScorer(c);
        case "length":
          return createLengthScorer(c);
        case "regex":
          return createRegexScorer(c);
        case "json-schema":
          return createJsonSchemaScorer(c);
        case "tool-calls":
          return createToolCallsScorer(c);
        case "command-check":
          // A loop under git with evidence settings grades on a clean tree against the baseline.
          return deps.git && deps.evidence ? createGradedCheckScorer(c, deps) : createCommandCheckScorer(c, deps);
        case "llm-judge":
          return createLlmJudgeScorer(c, deps);
      }
    });
}

/** Validators from the pure checks whose role is "validate" or "both" (async checks cannot validate). */
export function createValidators(configs: readonly unknown[]): ValidatorFn[] {
  return parseScorerConfigs(configs)
    .filter(validates)
    .flatMap((c): ValidatorFn[] => {
      switch (c.kind) {
        case "keyword":
          return [keywordValidator(c)];
        case "length":
          return [lengthValidator(c)];
        case "regex":
          return [regexValidator(c)];
        case "json-schema":
          return [jsonSchemaValidator(c)];
        case "tool-calls":
          return [toolCallsConfigValidator(c)];
        default:
          return [];
      }
    });
}

/** `loopId` fixes the workspace for a command verifier (VerifyRequest carries no loop id). */
export function createVerifier(config: unknown, deps: AgentDeps, loopId: string): VerifierPort | undefined {
  if (config === undefined || config === null) return undefined;
  const parsed = parse(verifierConfigSchema, config, "verifier");
  switch (parsed.kind) {
    case "none":
      return undefined;
    case "llm":
      return createLlmVerifier(parsed, deps);
    case "command":
      return createCommandVerifier(parsed, deps, loopId);
  }
}

/** What to do about a weak score, per scorer, for the rule-based reflector's suggestions. */
export function scorerHint(c: ScorerConfig): string {
  switch (c.kind) {
    case "keyword":
      return `Cover every key term: ${c.keywords.join(", ")}`;
    case "length":
      return `Keep the answer within ${c.min}${c.max !== undefined ? `–${c.max}` : "+"} ${c.unit}`;
    case "regex":
      return c.expect === "match"
        ? `Make the output match /${c.pattern}/`
        : `Remove what matches /${c.pattern}/ from the output`;
    case "json-schema":
      return c.required.length
        ? `Return JSON with the fields ${c.required.join(", ")}`
        : "Return JSON that satisfies the schema";
    case "tool-calls":
      return c.required.length ? `Use the required tools: ${c.required.join(", ")}` : "Use the tools the task needs";
    case "command-check":
      return `Run \`${c.argv.join(" ")}\` yourself and fix what fails before finishing`;
    case "llm-judge":
      return `Meet the rubric: ${c.rubric.length > 160 ? `${c.rubric.slice(0, 160)}…` : c.rubric}`;
  }
}

export function createReflector(
  config: unknown,
  deps: AgentDeps,
  scorerConfigs: readonly unknown[] = [],
): ReflectorPort {
  const parsed = parse(reflectorConfigSchema, config ?? { kind: "rule-based" }, "reflector");
  if (parsed.kind === "llm") return createLlmReflector(parsed, deps);
  const hints: ScorerHints = {};
  for (const c of parseScorerConfigs(scorerConfigs)) hints[c.name] = scorerHint(c);
  return createRuleBasedReflector(hints);
}

export interface AgentPortsConfig {
  agent: unknown;
  /** Runs while the agent's usage limit holds (`limits.onUsageLimit: fallback`). */
  fallbackAgent?: unknown;
  scorers?: readonly unknown[];
  verifier?: unknown;
  reflector?: unknown;
}

/** Everything the engine needs from this module, for one loop. */
export function createPorts(
  config: AgentPortsConfig,
  deps: AgentDeps,
  loopId: string,
): Pick<EnginePorts, "agent" | "fallbackAgent" | "scorers" | "validators" | "verifier" | "reflector"> {
  const scorers = config.scorers ?? [];
  // One redactor for the loop: a verifier printing what the agent wrote is scrubbed of the agent's secrets too.
  deps = deps.redactor ? deps : { ...deps, redactor: new SecretRedactor() };
  return {
    agent: createAgent(config.agent, deps),
    ...(config.fallbackAgent ? { fallbackAgent: createAgent(config.fallbackAgent, deps) } : {}),
    scorers: createScorers(scorers, deps),
    validators: createValidators(scorers),
    verifier: createVerifier(config.verifier, deps, loopId),
    reflector: createReflector(config.reflector, deps, scorers),
  };
}
