import { z } from "zod";
import type { ScorerPort, ValidatorFn } from "../engine";
import { parseOutputData, schemaValidator, validateSchema } from "../engine";
import { AgentError } from "./agent-error";
import type { JsonSchemaScorerConfig } from "./scorer.schema";

/** Built once per scorer: a JSON Schema the converter cannot handle is a config error, not a zero score. */
function contractOf(config: JsonSchemaScorerConfig) {
  let schema: z.ZodType | undefined;
  if (config.schema) {
    try {
      schema = z.fromJSONSchema(config.schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (error) {
      throw new AgentError("config", `Scorer "${config.name}": unusable JSON Schema (${(error as Error).message})`, {
        retryable: false,
      });
    }
  }
  return { required: config.required, schema };
}

export function createJsonSchemaScorer(config: JsonSchemaScorerConfig): ScorerPort {
  const contract = contractOf(config);
  const checks = contract.required.length + (contract.schema ? 1 : 0);
  return {
    name: config.name,
    score({ output }) {
      const data = parseOutputData(output);
      if (data === null) return { score: 0, reason: "the output is not JSON (nor has a ```json block)" };
      const result = validateSchema(data, contract);
      if (result.valid) return { score: 1, reason: "structured output is valid" };
      const missing = result.errors.filter((e) => e.startsWith("missing required field")).length;
      const schemaFailed = contract.schema && result.errors.length > missing ? 1 : 0;
      return { score: (checks - missing - schemaFailed) / checks, reason: result.errors.slice(0, 5).join("; ") };
    },
  };
}

export function jsonSchemaValidator(config: JsonSchemaScorerConfig): ValidatorFn {
  const validate = schemaValidator(contractOf(config));
  return (subject) => ({ ...validate(subject), name: config.name });
}
