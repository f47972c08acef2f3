// Before a loop starts: is the agent's CLI installed, and is every secret it
// needs there (a stored secret, or a variable the admin lets agents read)?
// The New-loop form shows the answer as the operator types; creating a loop
// that starts at once refuses with the same words. Stored secrets are also
// linked by name here, so a stored ANTHROPIC_API_KEY serves the Claude Code
// template without anyone typing its id.
import { cliChecks, type PreflightCheck } from "./cli-preflight";

export type { PreflightCheck };
import { commandPresetSpecs } from "../agents/command.executor";
import { envNameProblem, adminEnvAllow } from "../agents/env-policy";
import type { Database } from "../db/client";
import { secretScopeRow } from "../db/secrets.repo";
import { secretFromEnv } from "../env";
import { invalidInput } from "../errors";
import { scopeFromRow, scopeViolation } from "../secrets/secret-scope";
import type { LoopDefinition } from "./loop-definition";
import type { ActingAs } from "./loop-services";

type Agent = LoopDefinition["agent"];
type Secret = { name: string; env?: string; secret?: string };

/** A stored secret of this name the acting user may use for this kind of adapter, by name. */
async function usableStoredSecret(db: Database, name: string, kind: "command" | "llm", acting: ActingAs) {
  const row = await secretScopeRow(db.prisma, name);
  if (!row || row.name !== name) return null;
  return scopeViolation(row.name, scopeFromRow(row), { role: acting.actor.role, kind, hosts: [] }) ? null : row.name;
}

/**
 * Fills in `secret` for every secret an agent names without saying where it
 * comes from, when a stored secret of that name exists (it wins over the
 * environment: storing it is how an operator says "use this one").
 */
export async function linkStoredSecrets(db: Database, definition: LoopDefinition, acting: ActingAs) {
  const link = async (agent: Agent | undefined): Promise<Agent | undefined> => {
    if (agent?.kind === "command") {
      const secrets = await Promise.all(
        agent.secrets.map(async (s: Secret) => {
          if (s.secret || s.env) return s;
          const stored = await usableStoredSecret(db, s.name, "command", acting);
          return stored ? { ...s, secret: stored } : s;
        }),
      );
      return { ...agent, secrets };
    }
    if (agent?.kind === "llm" && !agent.apiKeySecret) {
      const name = llmKeyEnv(agent);
      const stored = name ? await usableStoredSecret(db, name, "llm", acting) : null;
      return stored ? { ...agent, apiKeySecret: stored } : agent;
    }
    return agent;
  };
  return {
    ...definition,
    agent: (await link(definition.agent))!,
    ...(definition.fallbackAgent ? { fallbackAgent: await link(definition.fallbackAgent) } : {}),
  } as LoopDefinition;
}

export function llmKeyEnv(agent: Extract<Agent, { kind: "llm" }>): string | null {
  if (agent.apiKeyEnv) return agent.apiKeyEnv;
  if (agent.provider === "anthropic") return "ANTHROPIC_API_KEY";
  if (agent.provider === "openai") return "OPENAI_API_KEY";
  return null;
}

async function secretCheck(
  db: Database,
  id: string,
  name: string,
  ref: { secret?: string; env?: string },
): Promise<PreflightCheck> {
  const label = `Secret ${name}`;
  if (ref.secret) {
    const row = await secretScopeRow(db.prisma, ref.secret);
    return row
      ? { id, label, status: "ok", message: `from the stored secret "${row.name}"` }
      : {
          id,
          label,
          status: "problem",
          message: `the stored secret "${ref.secret}" does not exist (Settings → Secrets)`,
        };
  }
  const env = ref.env ?? name;
  const problem = envNameProblem(env, "credential", adminEnvAllow());
  if (!problem && secretFromEnv(env) !== undefined)
    return { id, label, status: "ok", message: `from the server's environment variable ${env}` };
  return {
    id,
    label,
    status: "problem",
    message: `${env} is not set: store a secret named ${env} in Settings → Secrets (it is picked up by name)${
      problem === "not_allowed" ? ", or have an admin list the variable in RALPH_AGENT_ENV_ALLOW" : ""
    }`,
  };
}

async function agentChecks(db: Database, path: string, agent: Agent, workspace: string | null) {
  const checks: PreflightCheck[] = [];
  if (agent.kind === "command") {
    const command = agent.argv?.[0] ?? commandPresetSpecs[agent.preset].argv[0];
    if (command) checks.push(...(await cliChecks(path, agent, command, workspace)));
    for (const [i, s] of agent.secrets.entries())
      checks.push(await secretCheck(db, `${path}.secrets[${i}]`, s.name, s));
  }
  if (agent.kind === "llm") {
    const env = llmKeyEnv(agent);
    if (agent.apiKeySecret || env)
      checks.push(
        await secretCheck(db, `${path}.apiKey`, env ?? "API key", {
          secret: agent.apiKeySecret,
          env: env ?? undefined,
        }),
      );
  }
  return checks;
}

/** What would stop this loop before its first iteration, as the form and `loops.preflight` show it. */
export async function preflightDefinition(db: Database, definition: LoopDefinition, acting: ActingAs) {
  const linked = await linkStoredSecrets(db, definition, acting);
  const workspace = linked.workspace?.trim() ? linked.workspace.trim() : null;
  const checks = [
    ...(await agentChecks(db, "agent", linked.agent, workspace)),
    ...(linked.fallbackAgent ? await agentChecks(db, "fallbackAgent", linked.fallbackAgent, workspace) : []),
  ];
  return { ok: checks.every((c) => c.status !== "problem"), checks };
}

/** Refuses to start a loop the preflight already knows will fail, naming every problem. */
export async function assertPreflight(db: Database, definition: LoopDefinition, acting: ActingAs) {
  const { checks } = await preflightDefinition(db, definition, acting);
  const problems = checks.filter((c) => c.status === "problem");
  if (problems.length === 0) return;
  throw invalidInput(
    `The loop cannot start: ${problems.map((p) => `${p.label}: ${p.message}`).join("; ")}. Save it as a draft to start it later.`,
  );
}
