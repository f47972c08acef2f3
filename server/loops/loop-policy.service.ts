// The agent policy (server/agents/agent-policy.ts) applied to a loop an
// actor creates or forks: the server's settings, the actor's role and the
// stored secrets' scopes decide. The first violation becomes the error
// (400 or 403, naming the field); all of them are in its details.
import { agentPolicyViolations, type PolicyInput } from "../agents/agent-policy";
import {
  agentConfigSchema,
  reflectorConfigSchema,
  scorerConfigSchema,
  verifierConfigSchema,
} from "../agents/agent.schema";
import type { Database } from "../db/client";
import { secretScopeRow } from "../db/secrets.repo";
import { getEnv } from "../env";
import { DomainError } from "../errors";
import { scopeFromRow, scopeViolation } from "../secrets/secret-scope";
import type { ActingAs } from "./loop-services";
import { setupOf } from "./loop-environment";
import { appDir } from "../app-dir";

export async function assertLoopPolicy(db: Database, input: PolicyInput, acting: ActingAs): Promise<void> {
  const env = getEnv();
  const role = acting.actor.role;
  const violations = await agentPolicyViolations(input, {
    role,
    envAllow: env.RALPH_AGENT_ENV_ALLOW,
    allowHosts: env.RALPH_AGENT_ALLOW_HOSTS,
    workspaceRoots: env.RALPH_WORKSPACE_ROOTS,
    dataDir: env.RALPH_DATA_DIR,
    appDir: appDir(),
    sandboxMode: env.RALPH_AGENT_SANDBOX,
    async checkSecret(idOrName, use) {
      const row = await secretScopeRow(db.prisma, idOrName);
      if (!row) return "missing";
      return scopeViolation(row.name, scopeFromRow(row), { ...use, role });
    },
  });
  const first = violations[0];
  if (!first) return;
  const message = violations.length > 1 ? `${first.message} (and ${violations.length - 1} more)` : first.message;
  throw new DomainError(first.status === 403 ? "FORBIDDEN" : "INVALID_INPUT", message, { violations });
}

/**
 * A stored loop's config in the policy's shape (a fork re-checks it for the
 * actor who forks). A part that does not parse is left out: the runtime
 * refuses to build it, so it can never run.
 */
export function storedPolicyInput(config: unknown): PolicyInput {
  const stored = (config ?? {}) as Record<string, unknown>;
  const scorers = (Array.isArray(stored.scorers) ? stored.scorers : []).flatMap((c: unknown) => {
    const parsed = scorerConfigSchema.safeParse(c);
    return parsed.success ? [parsed.data] : [];
  });
  const verifier = verifierConfigSchema.safeParse(stored.verifier ?? { kind: "none" });
  const reflector = reflectorConfigSchema.safeParse(stored.reflector ?? { kind: "rule-based" });
  return {
    workspace: typeof stored.workspace === "string" ? stored.workspace : "",
    agent: agentConfigSchema.safeParse(stored.agent).data ?? null,
    scorers,
    verifier: verifier.data ?? { kind: "none" },
    reflector: reflector.data ?? { kind: "rule-based" },
    ...(setupOf(stored) ? { setup: setupOf(stored)! } : {}),
  };
}
