/**
 * How a command attempt is wired to its permission server: Claude Code with a
 * permission policy and a gate to ask gets one server per attempt (extra argv,
 * the host the sandbox must reach, and an MCP tool timeout longer than the
 * policy's deadline); every other attempt gets the empty wiring, so the
 * executor never branches on it.
 */
import type { AgentRunRequest } from "../engine";
import type { CommandAgentConfig } from "./command.schema";
import type { AgentDeps } from "./deps";
import { startPermissionServer } from "./permission-server";

interface PermissionWiring {
  args: readonly string[];
  hosts: string[];
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Margin past the policy's deadline, so the CLI does not time out a question the gate is still deciding. */
const TOOL_TIMEOUT_MARGIN_SECONDS = 120;

const NO_WIRING: PermissionWiring = { args: [], hosts: [], env: {}, close: async () => {} };

export async function permissionWiringFor(
  config: CommandAgentConfig,
  deps: AgentDeps,
  request: AgentRunRequest,
  workspace: string,
): Promise<PermissionWiring> {
  if (config.preset !== "claude-code" || !config.permissions || !deps.permissions) return NO_WIRING;
  const server = await startPermissionServer({
    loopId: request.loopId,
    iteration: request.iteration,
    attempt: request.attempt,
    workspace,
    policy: config.permissions,
    gate: deps.permissions,
  });
  return {
    args: server.args,
    hosts: [server.host],
    env: { MCP_TOOL_TIMEOUT: String((config.permissions.deadlineSeconds + TOOL_TIMEOUT_MARGIN_SECONDS) * 1000) },
    close: () => server.close(),
  };
}
