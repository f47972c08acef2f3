/**
 * What a user may put in a loop's agent, scorers, verifier and reflector,
 * checked when a loop is created or forked (the executors check the same
 * things again at run time). A 400 for what nobody may do (the server's own
 * configuration as a variable, a workspace over the data folder), a 403 for
 * what needs an admin (sandbox off, private hosts, secrets outside their
 * scope). Every message names the field.
 */
import { accessSync, constants, statSync } from "node:fs";
import { isIP } from "node:net";
import { resolve, sep } from "node:path";
import { isServerConfigName } from "../env";
import type { AgentConfig } from "./agent.schema";
import type { CommandPreset, ProcessFields } from "./command.schema";
import { envNameMessage, envNameProblem, type EnvUse } from "./env-policy";
import type { ModelRef } from "./llm.schema";
import type { ReflectorConfig } from "./reflector.schema";
import { isThisMachine, sandboxHostProblem } from "./sandbox/loopback-hosts";
import { networkHosts } from "./sandbox/network-presets";
import { physicalPath, workspaceOverlap } from "./sandbox/workspace-guard";
import type { ScorerConfig } from "./scorer.schema";
import type { SecretUseContext } from "./secret-resolver";
import { isBlockedAddress } from "./ssrf-guard";
import type { VerifierConfig } from "./verifier.schema";

export interface PolicyViolation {
  status: 400 | 403;
  field: string;
  message: string;
}

export interface PolicyContext {
  role: "viewer" | "operator" | "admin";
  /** RALPH_AGENT_ENV_ALLOW */
  envAllow: readonly string[];
  /** RALPH_AGENT_ALLOW_HOSTS */
  allowHosts: readonly string[];
  /** RALPH_WORKSPACE_ROOTS */
  workspaceRoots: readonly string[];
  dataDir: string;
  appDir: string;
  sandboxMode: "on" | "off";
  /** A stored secret's scope check for this role and use, or "missing"; null when allowed. */
  checkSecret(idOrName: string, use: SecretUseContext): Promise<string | "missing" | null>;
}

export interface PolicyInput {
  workspace: string;
  /** null: nothing to check (a stored config that no longer parses cannot run). */
  agent: AgentConfig | null;
  scorers: readonly ScorerConfig[];
  verifier: VerifierConfig;
  reflector: ReflectorConfig;
  /** The loop's setup command (workspace-setup.schema.ts): a process like a check. */
  setup?: ProcessFields & { argv: readonly string[] };
}

const DEFAULT_KEY_ENV = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" } as const;

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** A loopback, private or link-local target, named by address or as localhost. */
function privateTarget(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  return isIP(bare) !== 0 && isBlockedAddress(bare);
}

const hostOf = (raw: string): { host: string; port: string } | null => {
  try {
    const url = new URL(raw);
    return { host: url.hostname, port: url.port || (url.protocol === "https:" ? "443" : "80") };
  } catch {
    return null;
  }
};

const listed = (allow: readonly string[], host: string, port: string) => {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return allow.some((entry) => {
    const e = entry.toLowerCase();
    return e === bare || e === `${bare}:${port}` || e === `[${bare}]` || e === `[${bare}]:${port}`;
  });
};

/** Why a folder cannot be a loop's workspace (missing, not a folder, not writable by the server), or null. */
export function workspaceProblem(dir: string): string | null {
  try {
    if (!statSync(dir).isDirectory()) return "is not a directory";
  } catch {
    return "does not exist";
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return "is not writable by the server";
  }
  return null;
}

export async function agentPolicyViolations(input: PolicyInput, ctx: PolicyContext): Promise<PolicyViolation[]> {
  const out: PolicyViolation[] = [];
  const admin = ctx.role === "admin";

  const envName = (field: string, name: string, use: EnvUse) => {
    const problem = envNameProblem(name, use, ctx.envAllow);
    if (problem)
      out.push({
        status: problem === "server_config" ? 400 : 403,
        field,
        message: envNameMessage(field, name, problem),
      });
  };
  const secret = async (field: string, idOrName: string, use: SecretUseContext) => {
    const verdict = await ctx.checkSecret(idOrName, use);
    if (verdict === "missing") out.push({ status: 400, field, message: `${field}: no stored secret "${idOrName}"` });
    else if (verdict) out.push({ status: 403, field, message: `${field}: ${verdict}` });
  };
  const target = (field: string, raw: string, extraAllow: readonly string[] = []) => {
    const where = hostOf(raw);
    if (!where || !privateTarget(where.host)) return;
    if (listed([...ctx.allowHosts, ...extraAllow], where.host, where.port)) return;
    out.push({
      status: 403,
      field,
      message: `${field}: ${where.host} is a loopback or private address; only an admin can allow it (RALPH_AGENT_ALLOW_HOSTS)`,
    });
  };

  const model = async (path: string, ref: ModelRef) => {
    const baseURL =
      ref.baseURL ??
      (ref.provider === "openai"
        ? "https://api.openai.com/v1"
        : ref.provider === "anthropic"
          ? "https://api.anthropic.com/v1"
          : "");
    if (ref.baseURL) target(`${path}.baseURL`, ref.baseURL);
    const use: SecretUseContext = { kind: "llm", hosts: hostOf(baseURL) ? [hostOf(baseURL)!.host] : [] };
    if (ref.apiKeySecret) await secret(`${path}.apiKeySecret`, ref.apiKeySecret, use);
    else if (ref.apiKeyEnv) envName(`${path}.apiKeyEnv`, ref.apiKeyEnv, "credential");
    else if (ref.provider !== "openai-compatible")
      envName(`${path}.apiKeyEnv`, DEFAULT_KEY_ENV[ref.provider], "credential");
  };

  const process = async (path: string, config: ProcessFields, preset: CommandPreset | null) => {
    config.envAllow.forEach((name, i) => envName(`${path}.envAllow[${i}]`, name, "inherit"));
    const sandboxed = ctx.sandboxMode === "on" && config.sandbox === "on";
    if (config.sandbox === "off" && !admin) {
      out.push({
        status: 403,
        field: `${path}.sandbox`,
        message: `${path}.sandbox: only an admin can turn the sandbox off`,
      });
    }
    for (const [i, h] of config.network.hosts.entries()) {
      // Exactly what the sandbox will apply (loopback-hosts.ts, the same function at run time).
      const problem = await sandboxHostProblem(h.toLowerCase(), "loop");
      if (problem) {
        out.push({
          status: 400,
          field: `${path}.network.hosts[${i}]`,
          message: `${path}.network.hosts[${i}]: ${problem}`,
        });
        continue;
      }
      const host = h.replace(/:\d+$/, "");
      const mine = privateTarget(host) || (await isThisMachine(h.toLowerCase()));
      if (!admin && mine && !ctx.allowHosts.includes(h) && !ctx.allowHosts.includes(host)) {
        out.push({
          status: 403,
          field: `${path}.network.hosts[${i}]`,
          message: `${path}.network.hosts[${i}]: ${h} is a loopback or private address; only an admin can allow it (RALPH_AGENT_ALLOW_HOSTS)`,
        });
      }
    }
    const hosts = sandboxed ? [...networkHosts(config.network, preset), ...ctx.allowHosts] : null;
    for (const [i, s] of config.secrets.entries()) {
      if (s.secret) await secret(`${path}.secrets[${i}].secret`, s.secret, { kind: "command", hosts });
      else envName(`${path}.secrets[${i}].env`, s.env ?? s.name, "credential");
    }
  };

  const agent = input.agent ?? { kind: "demo" as const };
  switch (agent.kind) {
    case "command":
      await process("agent", agent, agent.preset);
      break;
    case "llm":
      await model("agent", agent);
      break;
    case "webhook": {
      Object.keys(agent.headers).forEach((name) => {
        if (isServerConfigName(name.replaceAll("-", "_"))) {
          out.push({
            status: 400,
            field: `agent.headers.${name}`,
            message: `agent.headers.${name}: the name of the server's own configuration cannot be a header`,
          });
        }
      });
      const extra = agent.allowHosts.filter((h) => !ctx.allowHosts.includes(h.toLowerCase()));
      if (extra.length > 0 && !admin) {
        out.push({
          status: 403,
          field: "agent.allowHosts",
          message: `agent.allowHosts: only an admin can open private hosts (${extra.join(", ")}); ask for RALPH_AGENT_ALLOW_HOSTS`,
        });
      }
      target("agent.url", agent.url, admin ? agent.allowHosts : []);
      const where = hostOf(agent.url);
      if (agent.signingKeySecret) {
        await secret("agent.signingKeySecret", agent.signingKeySecret, {
          kind: "webhook",
          hosts: where ? [where.host] : [],
        });
      } else if (agent.signingKeyEnv) envName("agent.signingKeyEnv", agent.signingKeyEnv, "credential");
      break;
    }
    case "demo":
      break;
  }
  for (const [i, scorer] of input.scorers.entries()) {
    if (scorer.kind === "command-check") await process(`scorers[${i}]`, scorer, null);
    if (scorer.kind === "llm-judge") await model(`scorers[${i}]`, scorer);
  }
  if (input.verifier.kind === "command") await process("verifier", input.verifier, null);
  if (input.setup && input.setup.argv.length > 0) await process("setup", input.setup, null);
  if (input.verifier.kind === "llm") await model("verifier", input.verifier);
  if (input.reflector.kind === "llm") await model("reflector", input.reflector);

  if (input.workspace) {
    const ws = resolve(input.workspace);
    // Resolved through symlinks on both sides (workspace-guard.ts): a link planted by an agent leads nowhere it should not.
    const overlap = workspaceOverlap(input.workspace, [
      { what: "data folder", path: ctx.dataDir },
      { what: "app folder", path: ctx.appDir },
    ]);
    if (overlap) out.push({ status: 400, field: "workspace", message: `workspace: ${overlap}` });
    const unusable = workspaceProblem(ws);
    if (unusable) out.push({ status: 400, field: "workspace", message: `workspace: ${ws} ${unusable}` });
    const real = physicalPath(input.workspace);
    if (!admin && !ctx.workspaceRoots.some((root) => inside(real, physicalPath(root)))) {
      out.push({
        status: 403,
        field: "workspace",
        message:
          ctx.workspaceRoots.length > 0
            ? `workspace: operators may use folders under ${ctx.workspaceRoots.join(", ")} only`
            : "workspace: only an admin can choose the workspace folder (or list allowed folders in RALPH_WORKSPACE_ROOTS)",
      });
    }
  }
  // A 400 (nobody may do this) is the answer before a 403 (an admin could).
  return out.sort((a, b) => a.status - b.status);
}
