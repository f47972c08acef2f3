/**
 * `/api/mcp`: MCP's streamable HTTP transport, stateless (a fresh server and
 * transport per request, so any app instance can answer any call) and with
 * JSON answers instead of event streams (no tool here streams). Only API
 * tokens get in: the caller is the `Authorization: Bearer` token, judged on
 * every request and again on every call, never a session cookie, so no page
 * can make a signed-in browser call it.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { readBearer, resolveApiToken } from "../auth/api-tokens.service";
import type { LoopServices } from "../loops/loop-services";
import { TRPC_BODY_LIMIT } from "../request-body";
import { createRalphMcpServer } from "./mcp-server";

export const MCP_ENDPOINT = "/api/mcp";

const jsonRpcError = (status: number, message: string, headers: Record<string, string> = {}) =>
  Response.json(
    { jsonrpc: "2.0", error: { code: -32001, message }, id: null },
    { status, headers: { "cache-control": "no-store", ...headers } },
  );

export async function handleMcpHttp(req: Request, services: LoopServices): Promise<Response> {
  // No server-to-client stream and no sessions: the spec's answer is 405 for both.
  if (req.method !== "POST")
    return jsonRpcError(405, "Method not allowed: send JSON-RPC requests with POST", { allow: "POST" });
  const bearer = readBearer(req.headers);
  const challenge = { "www-authenticate": 'Bearer realm="ralph-control"' };
  if (!bearer) return jsonRpcError(401, "Send an API token as Authorization: Bearer (Settings → Tokens)", challenge);
  const actor = () => resolveApiToken(services.db, bearer, services.engine.now());
  if (!(await actor())) return jsonRpcError(401, "The API token is not valid (revoked, expired or unknown)", challenge);

  const server = createRalphMcpServer({ services, actor });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: TRPC_BODY_LIMIT,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req);
  } finally {
    await server.close();
  }
}
