// Which provider account a loop's agent spends: loops on the same account hit
// the same usage limit, so they wait together. The same stored secret is the
// same account; without one, the same CLI on this host (it is logged in once
// per machine), the same server environment variable, or the same URL host.
import { hostname } from "node:os";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The account key of one agent config, or null for agents with no provider (demo). */
export function agentAccount(agent: unknown, host = hostname()): string | null {
  const a = obj(agent);
  if (!a) return null;
  switch (a.kind) {
    case "command": {
      const secrets = Array.isArray(a.secrets) ? a.secrets.map(obj) : [];
      const stored = secrets.map((s) => str(s?.secret)).find((id) => id !== undefined);
      if (stored) return `secret:${stored}`;
      const argv = Array.isArray(a.argv) ? a.argv : [];
      const cli = str(a.preset) && a.preset !== "generic" ? str(a.preset) : str(argv[0]);
      return `cli:${cli ?? "command"}@${host}`;
    }
    case "llm": {
      const model = obj(a.model) ?? a;
      const stored = str(model.apiKeySecret);
      if (stored) return `secret:${stored}`;
      const provider = str(model.provider) ?? "openai";
      return `env:${str(model.apiKeyEnv) ?? provider}:${str(model.baseURL) ?? provider}`;
    }
    case "webhook": {
      const url = str(a.url);
      try {
        return url ? `url:${new URL(url).host}` : null;
      } catch {
        return null;
      }
    }
    default:
      return null;
  }
}

/** The accounts of a stored loop definition: its agent's and its fallback agent's. */
export function loopAccounts(config: unknown): { primary: string | null; fallback: string | null } {
  const c = obj(config) ?? {};
  return { primary: agentAccount(c.agent), fallback: c.fallbackAgent ? agentAccount(c.fallbackAgent) : null };
}
