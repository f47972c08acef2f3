import type { ScorerPort, ValidationResult, ValidatorFn } from "../engine";
import {
  compose,
  countedToolsValidator,
  requiredToolsValidator,
  toolCallsValidator as minToolCallsValidator,
  type ToolRequirements,
} from "../engine";
import type { ToolCallsScorerConfig } from "./scorer.schema";

const requirements = (c: ToolCallsScorerConfig): ToolRequirements => ({
  minToolCalls: c.minCount,
  requiredTools: c.required,
  countedTools: c.counted,
  minCounted: c.minCounted,
});

/** The engine's validators, composed; only the checks this config asks for. */
export function toolCallsConfigValidator(config: ToolCallsScorerConfig): ValidatorFn {
  const reqs = requirements(config);
  const parts: ValidatorFn[] = [];
  if (config.minCount > 0) parts.push(minToolCallsValidator(reqs));
  if (config.required.length > 0) parts.push(requiredToolsValidator(reqs));
  if (config.counted.length > 0) parts.push(countedToolsValidator(reqs));
  const all = compose(...parts);
  return (subject): ValidationResult => ({ ...all(subject), name: config.name });
}

export function createToolCallsScorer(config: ToolCallsScorerConfig): ScorerPort {
  const reqs = requirements(config);
  return {
    name: config.name,
    score({ toolCalls }) {
      // Each requirement is one check: the score is the share passed.
      const results: boolean[] = [];
      const errors: string[] = [];
      const subject = { output: "", data: null, toolCalls, claim: { done: false } };
      if (config.minCount > 0) results.push(collect(minToolCallsValidator(reqs)(subject), errors));
      for (const tool of config.required) {
        results.push(collect(requiredToolsValidator({ requiredTools: [tool] })(subject), errors));
      }
      if (config.counted.length > 0) results.push(collect(countedToolsValidator(reqs)(subject), errors));
      if (results.length === 0) return { score: 1, reason: `${toolCalls.length} tool call(s); nothing required` };
      const passed = results.filter(Boolean).length;
      return {
        score: passed / results.length,
        reason: errors.length ? errors.join("; ") : `${toolCalls.length} tool call(s), all requirements met`,
      };
    },
  };
}

function collect(result: ValidationResult, errors: string[]): boolean {
  errors.push(...result.errors);
  return result.valid;
}
