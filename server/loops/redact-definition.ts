// A stored loop definition as it may leave the server for an operator's
// browser (clone, detail): every field whose schema is marked secret is
// blanked, and the paths that were blanked are listed so the form can ask for
// them again instead of submitting "[redacted]".
import {
  redactAgentConfig,
  redactReflectorConfig,
  redactScorerConfigs,
  redactVerifierConfig,
} from "../agents/agent.schema";
import { REDACTED } from "../agents/redact";

export interface RedactedDefinition {
  definition: Record<string, unknown>;
  redactedPaths: string[];
}

function collectRedacted(value: unknown, path: string, out: string[]) {
  if (value === REDACTED) out.push(path);
  else if (Array.isArray(value)) value.forEach((v, i) => collectRedacted(v, `${path}.${i}`, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) collectRedacted(v, path ? `${path}.${k}` : k, out);
  }
}

export function redactStoredDefinition(stored: unknown): RedactedDefinition {
  const config = (stored && typeof stored === "object" ? stored : {}) as Record<string, unknown>;
  const definition: Record<string, unknown> = { ...config };
  if ("agent" in config) definition.agent = redactAgentConfig(config.agent);
  if (config.fallbackAgent) definition.fallbackAgent = redactAgentConfig(config.fallbackAgent);
  if ("scorers" in config) definition.scorers = redactScorerConfigs(config.scorers);
  if ("verifier" in config) definition.verifier = redactVerifierConfig(config.verifier);
  if ("reflector" in config) definition.reflector = redactReflectorConfig(config.reflector);
  const redactedPaths: string[] = [];
  collectRedacted(definition, "", redactedPaths);
  return { definition, redactedPaths };
}
