// The stored-secret picker of the New-loop form: for every secret the agent
// (and its fallback) needs, the stored secrets this user may use for that
// kind of adapter, by name, and which one the preflight would take when none
// is chosen (the one named like the variable; see loop-preflight.service.ts).
import type { Database } from "../db/client";
import { listSecretRows } from "../db/secrets.repo";
import { scopeFromRow, scopeViolation } from "../secrets/secret-scope";
import { llmKeyEnv } from "./loop-preflight.service";
import type { LoopDefinition } from "./loop-definition";
import type { ActingAs } from "./loop-services";

export interface SecretSlot {
  /** Where a choice goes in the definition, e.g. ["agent", "secrets", 0, "secret"]. */
  path: (string | number)[];
  /** The variable the agent reads it as, e.g. ANTHROPIC_API_KEY. */
  variable: string;
  /** The stored secret the definition names already, or null. */
  chosen: string | null;
  /** With nothing chosen: the stored secret of the variable's name the preflight links, or null (the environment). */
  byName: string | null;
  /** Stored secrets this user may use for this adapter, by name. */
  options: string[];
}

type Agent = LoopDefinition["agent"];

export async function secretChoices(
  db: Database,
  definition: Pick<LoopDefinition, "agent" | "fallbackAgent">,
  acting: ActingAs,
): Promise<SecretSlot[]> {
  const rows = await listSecretRows(db.prisma);
  const usable = (kind: "command" | "llm") =>
    rows
      .filter((r) => !scopeViolation(r.name, scopeFromRow(r), { role: acting.actor.role, kind, hosts: [] }))
      .map((r) => r.name);
  const slots = (root: string, agent: Agent | undefined): SecretSlot[] => {
    if (agent?.kind === "command") {
      const options = usable("command");
      return agent.secrets.map((s, i) => ({
        path: [root, "secrets", i, "secret"],
        variable: s.env ?? s.name,
        chosen: s.secret ?? null,
        byName: !s.env && options.includes(s.name) ? s.name : null,
        options,
      }));
    }
    if (agent?.kind === "llm") {
      const variable = llmKeyEnv(agent);
      const options = usable("llm");
      return [
        {
          path: [root, "apiKeySecret"],
          variable: variable ?? "API key",
          chosen: agent.apiKeySecret ?? null,
          byName: variable && options.includes(variable) ? variable : null,
          options,
        },
      ];
    }
    return [];
  };
  return [...slots("agent", definition.agent), ...slots("fallbackAgent", definition.fallbackAgent)];
}
