// ralph mcp: Ralph Control's MCP server for clients that start servers as a
// command (Claude Code, Codex, editors) over stdio. It is a relay to the
// server's /api/mcp endpoint with this CLI's API token, so the tools, roles,
// idempotency and audit trail are the server's own: one implementation.
// stdout carries only MCP messages; anything else goes to stderr.
import type { Command } from "commander";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { isJSONRPCRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { loadConfig } from "../config";

/** A JSON-RPC error for a request the server could not be asked (unreachable, token refused). */
const failed = (message: JSONRPCMessage, error: unknown): JSONRPCMessage | null =>
  isJSONRPCRequest(message)
    ? {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32001, message: `Ralph Control did not answer: ${(error as Error).message}` },
      }
    : null;

export async function relayStdioToHttp(url: string, token: string): Promise<void> {
  const stdio = new StdioServerTransport();
  const http = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const closed = new Promise<void>((resolve) => {
    stdio.onclose = resolve;
    process.stdin.once("end", resolve);
  });
  http.onmessage = (message) => void stdio.send(message);
  http.onerror = (error) => process.stderr.write(`ralph mcp: ${error.message}\n`);
  stdio.onmessage = (message) => {
    http.send(message).catch((error: unknown) => {
      const reply = failed(message, error);
      if (reply) void stdio.send(reply);
      else process.stderr.write(`ralph mcp: ${(error as Error).message}\n`);
    });
  };
  await http.start();
  await stdio.start();
  await closed;
  await http.close().catch(() => undefined);
}

export function mcpCommand(program: Command) {
  program
    .command("mcp")
    .description("serve Ralph Control's MCP tools over stdio (for Claude Code, Codex, editors), as your API token")
    .action(async () => {
      const config = loadConfig();
      await relayStdioToHttp(config.url, config.token);
    });
}
