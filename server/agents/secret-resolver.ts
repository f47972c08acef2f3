/**
 * Secrets are referenced by name in loop config and resolved only at run
 * time, so config, events and report pages never hold a secret value.
 */
import { z } from "zod";
import { secretFromEnv } from "../env";
import { AgentError } from "./agent-error";
import { assertEnvName } from "./env-policy";

/** A secret by environment variable name, or by id in the encrypted settings store. */
export type SecretRef = { env: string } | { secret: string };

/**
 * What the value is for: the kind of adapter and every host it could reach
 * (null: any host, e.g. a process without the sandbox). A stored secret's
 * scope is checked against it.
 */
export interface SecretUseContext {
  kind: "command" | "llm" | "webhook";
  hosts: readonly string[] | null;
}

export interface SecretResolver {
  resolve(ref: SecretRef, use: SecretUseContext): Promise<string | undefined>;
}

/**
 * Resolves `{ env }` references from the server environment, for the names an
 * admin listed in RALPH_AGENT_ENV_ALLOW only; store ids are unknown to it.
 */
export const envSecretResolver: SecretResolver = {
  async resolve(ref) {
    if (!("env" in ref)) return undefined;
    assertEnvName("environment variable", ref.env, "credential");
    return secretFromEnv(ref.env);
  },
};

/** First resolver that knows the reference wins (e.g. the settings store, then the environment). */
export function chainSecretResolvers(...resolvers: SecretResolver[]): SecretResolver {
  return {
    async resolve(ref, use) {
      for (const resolver of resolvers) {
        const value = await resolver.resolve(ref, use);
        if (value !== undefined) return value;
      }
      return undefined;
    },
  };
}

export const describeRef = (ref: SecretRef) =>
  "env" in ref ? `environment variable ${ref.env}` : `secret "${ref.secret}"`;

/** The store id wins over the env name when both are configured. */
export function refFrom(envName: string | undefined, secretId: string | undefined): SecretRef | undefined {
  if (secretId) return { secret: secretId };
  if (envName) return { env: envName };
  return undefined;
}

export async function resolveRequired(
  resolver: SecretResolver,
  ref: SecretRef,
  purpose: string,
  use: SecretUseContext,
): Promise<string> {
  const value = await resolver.resolve(ref, use);
  if (value === undefined || value === "") {
    throw new AgentError("config", `${purpose}: ${describeRef(ref)} is not set`, { retryable: false });
  }
  return value;
}

// Schema builders. `secret: true` in the metadata is what redactAgentConfig
// and the generated UI form look for (it also shows up in z.toJSONSchema).
export const envVarName = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]*$/, "must be an environment variable name like OPENAI_API_KEY");

export const secretEnvField = (label: string) => envVarName.meta({ description: label, secret: true });
export const secretIdField = (label: string) => z.string().min(1).meta({ description: label, secret: true });
