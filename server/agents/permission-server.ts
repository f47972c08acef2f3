/**
 * The permission tool Claude Code calls (`--permission-prompt-tool`) when it would
 * ask a person whether a tool call may run: one MCP server per agent attempt, on
 * this machine's loopback, exposing that one tool and nothing else.
 *
 * Why per attempt and not `/api/mcp` with an API token: the agent can read its
 * own `--mcp-config` (argv, files), so whatever credential it carries must be
 * useless for anything but asking. This server's bearer is random per attempt,
 * only reaches a tool that *asks* (it creates a pending prompt of this loop's
 * attempt; answering needs an operator through the API), and dies with the
 * attempt (`close()`), so no token of a user or of the app is ever in the sandbox.
 *
 * Observed with Claude Code 2.1.332: the tool gets {tool_name, input, tool_use_id};
 * text content {"behavior":"allow","updatedInput":{...}} runs the call with that
 * input; {"behavior":"deny","message":"..."} skips it and the agent reads the
 * message as the tool's error result.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { approvalReason, describeCall } from "./permission-policy";
import type { PermissionPolicy } from "./permission-policy.schema";

export const PERMISSION_SERVER_NAME = "ralph_permissions";
export const PERMISSION_TOOL = "permission_prompt";
export const PERMISSION_TOOL_ID = `mcp__${PERMISSION_SERVER_NAME}__${PERMISSION_TOOL}`;

/** A call the policy wants decided by a person. */
export interface PermissionAsk {
  loopId: string;
  iteration: number;
  attempt: number;
  toolName: string;
  toolUseId: string | null;
  input: Record<string, unknown>;
  /** The exact command, the diff, or the input. */
  summary: string;
  /** Why the policy matched. */
  reason: string;
  policy: PermissionPolicy;
}

export interface PermissionAnswer {
  behavior: "allow" | "deny";
  message: string;
}

/** Stores the prompt, waits for an operator or the deadline, and says what was decided (never hangs past the deadline). */
export interface PermissionGate {
  ask(request: PermissionAsk, signal: AbortSignal): Promise<PermissionAnswer>;
}

export interface PermissionServer {
  /** `--mcp-config` and `--permission-prompt-tool` for Claude Code. */
  args: string[];
  /** `127.0.0.1:<port>`: the sandbox must forward it. */
  host: string;
  close(): Promise<void>;
}

interface Attempt {
  loopId: string;
  iteration: number;
  attempt: number;
  workspace: string;
  policy: PermissionPolicy;
  gate: PermissionGate;
}

const callSchema = {
  tool_name: z.string(),
  input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().optional(),
};

function toolServer(attempt: Attempt, signal: AbortSignal): McpServer {
  const server = new McpServer({ name: PERMISSION_SERVER_NAME, version: "1.0.0" });
  server.registerTool(
    PERMISSION_TOOL,
    { description: "Asks Ralph Control's operator whether a tool call may run", inputSchema: callSchema },
    async (args) => {
      const call = { toolName: args.tool_name, input: args.input };
      const reason = approvalReason(attempt.policy, call, attempt.workspace);
      const answer: PermissionAnswer =
        reason === null
          ? { behavior: "allow", message: "" }
          : await attempt.gate.ask(
              {
                loopId: attempt.loopId,
                iteration: attempt.iteration,
                attempt: attempt.attempt,
                toolName: call.toolName,
                toolUseId: args.tool_use_id ?? null,
                input: call.input,
                summary: describeCall(call),
                reason,
                policy: attempt.policy,
              },
              signal,
            );
      const body =
        answer.behavior === "allow"
          ? { behavior: "allow", updatedInput: call.input }
          : { behavior: "deny", message: answer.message };
      return { content: [{ type: "text" as const, text: JSON.stringify(body) }] };
    },
  );
  return server;
}

/** Starts the attempt's permission server; `close()` when the agent process has exited. */
export async function startPermissionServer(attempt: Attempt): Promise<PermissionServer> {
  const token = randomBytes(32).toString("base64url");
  const ended = new AbortController();
  const http: Server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}` || !req.url?.startsWith("/mcp")) {
      res.writeHead(401).end();
      return;
    }
    // Stateless: a fresh server and transport per request, JSON answers (the prompt may wait minutes).
    const server = toolServer(attempt, ended.signal);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void server.close());
    void server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  // A prompt may wait up to its deadline: no request or idle timeout may cut it first.
  http.requestTimeout = 0;
  http.headersTimeout = 60_000;
  await new Promise<void>((ok, fail) => {
    http.once("error", fail);
    http.listen(0, "127.0.0.1", () => ok());
  });
  const port = (http.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/mcp`;
  const config = {
    mcpServers: { [PERMISSION_SERVER_NAME]: { type: "http", url, headers: { Authorization: `Bearer ${token}` } } },
  };
  return {
    args: ["--mcp-config", JSON.stringify(config), "--permission-prompt-tool", PERMISSION_TOOL_ID],
    host: `127.0.0.1:${port}`,
    async close() {
      ended.abort();
      http.closeAllConnections();
      await new Promise<void>((ok) => http.close(() => ok()));
    },
  };
}
