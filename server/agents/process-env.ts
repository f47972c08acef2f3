/**
 * Environment and working directory for a child process: an allowlist of the
 * server's variables, fixed extras, and secrets resolved at run time. The
 * resolved values are returned too, so callers can scrub them from anything
 * the process prints. The server's own configuration is never passed on.
 */
import { mkdirSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { inheritedEnv } from "../env";
import { AgentError } from "./agent-error";
import type { ProcessFields } from "./command.schema";
import { adminEnvAllow, assertEnvName } from "./env-policy";
import { resolveRequired, type SecretResolver, type SecretUseContext } from "./secret-resolver";

export interface ChildEnv {
  env: Record<string, string>;
  secretValues: string[];
}

type EnvConfig = Pick<ProcessFields, "envAllow" | "env" | "secrets">;

export function buildChildEnv(
  config: EnvConfig,
  resolver: SecretResolver,
  extra: Record<string, string>,
  use: SecretUseContext,
): Promise<ChildEnv> | ChildEnv {
  const allow = adminEnvAllow();
  for (const name of config.envAllow) assertEnvName("envAllow", name, "inherit", allow);
  const env = { ...inheritedEnv(config.envAllow), ...config.env, ...extra };
  if (config.secrets.length === 0) return { env, secretValues: [] };
  return Promise.all(
    config.secrets.map(async (s) => {
      const ref = s.secret ? { secret: s.secret } : { env: s.env ?? s.name };
      return [s.name, await resolveRequired(resolver, ref, `Agent secret ${s.name}`, use)] as const;
    }),
  ).then((pairs) => {
    for (const [name, value] of pairs) env[name] = value;
    return { env, secretValues: pairs.map(([, value]) => value) };
  });
}

/** The process directory inside the loop workspace, created on first use. */
export function workingDir(workspace: string, cwd: string): string {
  const root = resolve(workspace);
  const dir = resolve(join(root, cwd));
  if (dir !== root && !dir.startsWith(root + sep)) {
    throw new AgentError("config", `Working directory "${cwd}" is outside the workspace`, { retryable: false });
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}
