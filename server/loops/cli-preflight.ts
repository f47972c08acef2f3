// The preflight's checks of a command agent's CLI: found where the agent will
// run (a sandboxed agent cannot see /tmp or the hidden folders), the version
// that answers there against the preset's supported range, and a sign-in the
// agent can use (its HOME is the loop's own, so a login on the server is not).
import { cliVersionOutput, findSandboxedCli, judgeVersion } from "../agents/cli-version";
import { commandPresetSpecs } from "../agents/command.executor";
import { defaultEnvAllow } from "../agents/command.schema";
import { findExecutable } from "../agents/executable";
import { serverIsolation } from "../agents/sandbox/isolation";
import { inheritedEnv } from "../env";
import type { LoopDefinition } from "./loop-definition";

export interface PreflightCheck {
  id: string;
  label: string;
  /** ok; warning: it may start, read the message; problem: the loop would fail on it; unknown: only the first iteration can tell. */
  status: "ok" | "warning" | "problem" | "unknown";
  message: string;
}

type CommandAgent = Extract<LoopDefinition["agent"], { kind: "command" }>;

const SIGN_IN: Record<string, { names: string[]; how: string }> = {
  "claude-code": {
    names: ["ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN"],
    how:
      "pass ANTHROPIC_API_KEY, or for a Claude subscription run `claude setup-token` and store the token it prints " +
      "as a secret passed as CLAUDE_CODE_OAUTH_TOKEN",
  },
  codex: {
    names: ["OPENAI_API_KEY", "CODEX_API_KEY", "CODEX_AUTH_JSON"],
    how:
      "pass OPENAI_API_KEY (or CODEX_API_KEY), or for a ChatGPT plan store the contents of ~/.codex/auth.json " +
      "(after `codex login`) as a secret passed as CODEX_AUTH_JSON",
  },
};

export async function cliChecks(
  path: string,
  agent: CommandAgent,
  command: string,
  workspace: string | null,
): Promise<PreflightCheck[]> {
  const checks: PreflightCheck[] = [];
  const isolation = serverIsolation();
  const sandboxed = isolation.mode === "on" && agent.sandbox === "on";
  const pathVar = inheritedEnv(["PATH"]).PATH ?? "";
  const found = sandboxed
    ? findSandboxedCli(command, pathVar, workspace, isolation)
    : { ...findExecutable(command, pathVar, workspace), skipped: [] as string[] };
  checks.push({
    id: `${path}.command`,
    label: `Command ${command}`,
    status: found.found === true ? "ok" : found.found === false ? "problem" : "unknown",
    message:
      found.found === true
        ? `found at ${found.path}${"skipped" in found && found.skipped.length > 0 ? ` (passed over: ${found.skipped.join("; ")})` : ""}`
        : found.reason,
  });
  const spec = commandPresetSpecs[agent.preset];
  // An explicit argv may be a wrapper script: its --version is not the CLI's.
  if (found.found === true && spec.versions && !agent.argv) {
    let status: PreflightCheck["status"];
    let message: string;
    try {
      const out = await cliVersionOutput(found.path, pathVar, sandboxed ? isolation : null);
      ({ status, message } = judgeVersion(command, spec.versions, out));
    } catch (e) {
      status = "unknown";
      message = `could not run \`${command} --version\`${sandboxed ? " in the sandbox" : ""}: ${e instanceof Error ? e.message : String(e)}`;
    }
    checks.push({ id: `${path}.version`, label: `${command} version`, status, message });
  }
  const signIn = SIGN_IN[agent.preset];
  // Without the sandbox the agent has the server's HOME, and a login kept there works.
  if (signIn && sandboxed) {
    const extraAllowed = agent.envAllow.filter((n) => !defaultEnvAllow.includes(n));
    const given = [...agent.secrets.map((s) => s.name), ...Object.keys(agent.env), ...extraAllowed];
    const has = signIn.names.find((n) => given.includes(n));
    const notLoggedIn = `the agent runs with the loop's own HOME, so a login on the server is not seen; ${signIn.how}`;
    checks.push({
      id: `${path}.signIn`,
      label: "Sign-in",
      // Other variables may sign it in another way (Bedrock, Vertex, a gateway): then only a warning.
      status: has ? "ok" : given.length > 0 ? "warning" : "problem",
      message: has
        ? `the agent signs in with ${has}`
        : given.length > 0
          ? `no ${signIn.names.join(" / ")} passed: unless ${given.join(", ")} sign it in, it will say "Not logged in"; ${notLoggedIn}`
          : `Not logged in: ${notLoggedIn}`,
    });
  }
  return checks;
}
