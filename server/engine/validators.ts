/**
 * SF's composable validators. The plain functions check one thing and return
 * a ValidationResult; the `*Validator` factories adapt them to ValidatorFn so
 * a loop can be given `compose(...)` of whatever its contract needs.
 */
import type { z } from "zod";
import type { ValidationResult, ValidationSubject, ValidatorFn } from "./ports";

export interface OutputContract {
  /** Dot paths that must be present and not null, e.g. "result.files". */
  required?: string[];
  /** Optional full schema for the structured output. */
  schema?: z.ZodType;
}

export interface ToolRequirements {
  minToolCalls?: number;
  requiredTools?: string[];
  /** Any call to one of these counts toward `minCounted` (OR semantics). */
  countedTools?: string[];
  minCounted?: number;
}

const result = (name: string, errors: string[]): ValidationResult => ({ name, valid: errors.length === 0, errors });

function lookup(data: unknown, path: string): unknown {
  let current: unknown = data;
  for (const key of path.split(".")) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function validateSchema(data: unknown, contract: OutputContract): ValidationResult {
  const errors: string[] = [];
  if (data === null || data === undefined) errors.push("output has no structured data");
  else {
    for (const path of contract.required ?? []) {
      const value = lookup(data, path);
      if (value === undefined || value === null) errors.push(`missing required field "${path}"`);
    }
    if (contract.schema) {
      const parsed = contract.schema.safeParse(data);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          errors.push(`${issue.path.map(String).join(".") || "output"}: ${issue.message}`);
        }
      }
    }
  }
  return result("schema", errors);
}

export function validateToolCalls(count: number, reqs: ToolRequirements): ValidationResult {
  const min = reqs.minToolCalls ?? 0;
  return result("tool_calls", count >= min ? [] : [`expected at least ${min} tool call(s), got ${count}`]);
}

export function validateRequiredTools(calls: readonly string[], reqs: ToolRequirements): ValidationResult {
  const missing = (reqs.requiredTools ?? []).filter((tool) => !calls.includes(tool));
  return result(
    "required_tools",
    missing.map((tool) => `required tool "${tool}" was not called`),
  );
}

export function validateCountedTools(calls: readonly string[], reqs: ToolRequirements): ValidationResult {
  const counted = new Set(reqs.countedTools ?? []);
  const min = reqs.minCounted ?? (counted.size > 0 ? 1 : 0);
  const count = calls.filter((c) => counted.has(c)).length;
  return result(
    "counted_tools",
    count >= min ? [] : [`expected at least ${min} call(s) to any of [${[...counted].join(", ")}], got ${count}`],
  );
}

/** All must pass; errors are concatenated in order, names joined with "+". */
export function compose(...validators: ValidatorFn[]): ValidatorFn {
  return (subject) => {
    const results = validators.map((v) => v(subject));
    return {
      name: results.map((r) => r.name).join("+") || "compose",
      valid: results.every((r) => r.valid),
      errors: results.flatMap((r) => r.errors),
    };
  };
}

export const schemaValidator =
  (contract: OutputContract): ValidatorFn =>
  (s) =>
    validateSchema(s.data, contract);
/** A validator of the iteration's tool calls against the loop's tool requirements. */
const onToolCalls =
  (check: (calls: readonly string[], reqs: ToolRequirements) => ValidationResult) =>
  (reqs: ToolRequirements): ValidatorFn =>
  (s) =>
    check(s.toolCalls, reqs);
export const toolCallsValidator = onToolCalls((calls, reqs) => validateToolCalls(calls.length, reqs));
export const requiredToolsValidator = onToolCalls(validateRequiredTools);
export const countedToolsValidator = onToolCalls(validateCountedTools);

/** Runs validators, turning a throwing validator into a failed result. */
export function runValidators(validators: readonly ValidatorFn[], subject: ValidationSubject): ValidationResult[] {
  return validators.map((validator, index) => {
    try {
      return validator(subject);
    } catch (error) {
      return result(`validator_${index + 1}`, [`validator threw: ${errorMessage(error)}`]);
    }
  });
}

/** Structured data from an output: the whole text as JSON, else its first ```json block. */
export function parseOutputData(output: string): unknown {
  const attempts = [output.trim()];
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(output);
  if (fenced?.[1]) attempts.push(fenced[1].trim());
  for (const text of attempts) {
    if (!text.startsWith("{") && !text.startsWith("[")) continue;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // not JSON; try the next candidate
    }
  }
  return null;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
}
