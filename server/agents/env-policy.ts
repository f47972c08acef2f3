/**
 * Which of the server's environment variables may reach an agent. The
 * server's own configuration never does (DATABASE_URL, every RALPH_*
 * variable, whatever server/env.ts reads). Credentials come from stored
 * secrets, or from variables an admin lists in RALPH_AGENT_ENV_ALLOW.
 */
import { getEnv, isServerConfigName } from "../env";
import { AgentError } from "./agent-error";

/** Harmless variables any agent process may inherit (envAllow). */
export const BASE_AGENT_ENV: readonly string[] = [
  "PATH",
  "HOME",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "TERM",
  "TZ",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
];

export type EnvUse = "inherit" | "credential";
export type EnvNameProblem = "server_config" | "not_allowed";

/**
 * null when `name` may be used this way. `inherit` (envAllow) also accepts
 * the harmless base variables; `credential` (apiKeyEnv, secrets[].env,
 * signingKeyEnv) only what the admin listed.
 */
export function envNameProblem(name: string, use: EnvUse, adminAllow: readonly string[]): EnvNameProblem | null {
  if (isServerConfigName(name)) return "server_config";
  if (adminAllow.includes(name)) return null;
  if (use === "inherit" && BASE_AGENT_ENV.includes(name)) return null;
  return "not_allowed";
}

export function envNameMessage(field: string, name: string, problem: EnvNameProblem): string {
  return problem === "server_config"
    ? `${field}: ${name} is the server's own configuration and never reaches an agent`
    : `${field}: ${name} is not in RALPH_AGENT_ENV_ALLOW; use a stored secret, or ask an admin to list the variable there`;
}

export const adminEnvAllow = (): readonly string[] => getEnv().RALPH_AGENT_ENV_ALLOW;

/** Run-time check (a stored loop may predate a change of RALPH_AGENT_ENV_ALLOW). */
export function assertEnvName(field: string, name: string, use: EnvUse, adminAllow = adminEnvAllow()): void {
  const problem = envNameProblem(name, use, adminAllow);
  if (problem) throw new AgentError("config", envNameMessage(field, name, problem), { retryable: false });
}
