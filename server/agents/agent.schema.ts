/**
 * The config schemas the API validates with and the UI builds forms from
 * (labels via .describe(); secret-bearing fields carry `secret: true`).
 */
import { z } from "zod";
import { commandAgentSchema } from "./command.schema";
import { demoAgentSchema } from "./demo.schema";
import { llmAgentSchema } from "./llm.schema";
import { redactBySchema } from "./redact";
import { reflectorConfigSchema } from "./reflector.schema";
import { scorerConfigSchema } from "./scorer.schema";
import { verifierConfigSchema } from "./verifier.schema";
import { webhookAgentSchema } from "./webhook.schema";

export const agentConfigSchema = z.discriminatedUnion("kind", [
  commandAgentSchema,
  llmAgentSchema,
  webhookAgentSchema,
  demoAgentSchema,
]);

export type AgentConfig = z.output<typeof agentConfigSchema>;

export { reflectorConfigSchema, scorerConfigSchema, verifierConfigSchema };

/** For shared report pages: secret references (names, ids, header values, fixed env) are blanked. */
export function redactAgentConfig<T>(config: T): T {
  return redactBySchema(agentConfigSchema, config) as T;
}

export function redactScorerConfigs<T>(configs: T): T {
  return redactBySchema(z.array(scorerConfigSchema), configs) as T;
}

export function redactVerifierConfig<T>(config: T): T {
  return redactBySchema(verifierConfigSchema, config) as T;
}

export function redactReflectorConfig<T>(config: T): T {
  return redactBySchema(reflectorConfigSchema, config) as T;
}
