/**
 * Secrets are referenced by name in loop config and resolved only at run
 * time, so config, events and report pages never hold a secret value.
 */
import { z } from "zod";
import { secretFromEnv } from "../env";
import { AgentError } from "./agent-error";

/** A secret by environment variable name, or by id in the encrypted settings store. */
export type SecretRef = { env: string } | { secret: string };

export interface SecretResolver {
  resolve(ref: SecretRef): Promise<string | undefined>;
}

/** Resolves `{ env }` references from the server environment; store ids are unknown to it. */
export const envSecretResolver: SecretResolver = {
  resolve(ref) {
    return Promise.resolve("env" in ref ? secretFromEnv(ref.env) : undefined);
  },
};

/** First resolver that knows the reference wins (e.g. the settings store, then the environment). */
export function chainSecretResolvers(...resolvers: SecretResolver[]): SecretResolver {
  return {
    async resolve(ref) {
      for (const resolver of resolvers) {
        const value = await resolver.resolve(ref);
        if (value !== undefined) return value;
      }
      return undefined;
    },
  };
}

export const describeRef = (ref: SecretRef) => ("env" in ref ? `environment variable ${ref.env}` : `secret "${ref.secret}"`);

/** The store id wins over the env name when both are configured. */
export function refFrom(envName: string | undefined, secretId: string | undefined): SecretRef | undefined {
  if (secretId) return { secret: secretId };
  if (envName) return { env: envName };
  return undefined;
}

export async function resolveRequired(resolver: SecretResolver, ref: SecretRef, purpose: string): Promise<string> {
  const value = await resolver.resolve(ref);
  if (value === undefined || value === "") {
    throw new AgentError("config", `${purpose}: ${describeRef(ref)} is not set`, { retryable: false });
  }
  return value;
}

// Schema builders. `secret: true` in the metadata is what redactAgentConfig
// and the generated UI form look for (it also shows up in z.toJSONSchema).
export const envVarName = z.string().regex(/^[A-Z][A-Z0-9_]*$/, "must be an environment variable name like OPENAI_API_KEY");

export const secretEnvField = (label: string) => envVarName.meta({ description: label, secret: true });
export const secretIdField = (label: string) => z.string().min(1).meta({ description: label, secret: true });
