/**
 * Ralph Control's MCP server: the tools of mcp-tools.ts and two resources per
 * loop (its report, its latest iteration), over any transport (the HTTP route
 * uses mcp-http.ts; tests use the SDK's in-memory pair). The caller is read
 * again on every call, so a revoked token stops working at its next call,
 * and every call runs as that caller through the tRPC router: roles and the
 * audit trail are exactly the API's.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { TRPCError } from "@trpc/server";
import { createContext } from "../api/context";
import { createCaller } from "../api/root";
import type { Actor } from "../auth/actor";
import type { LoopServices } from "../loops/loop-services";
import { APP_VERSION } from "../version";
import { IdempotencyError, idempotent, type StoredAnswer } from "./idempotency";
import { isMutating, MCP_TOOLS, toolInput, type McpToolSpec } from "./mcp-tools";

export interface McpServerOptions {
  services: LoopServices;
  /** The caller behind this connection, read on every call; null when its token is no longer valid. */
  actor: () => Promise<Actor | null>;
}

type Caller = ReturnType<typeof createCaller>;
type Procedure = (input: unknown) => Promise<unknown>;

/** `loops.controls.approve` on a caller, by path (every path is checked against the router in the tests). */
const procedureOf = (caller: Caller, path: string): Procedure =>
  path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as Procedure;

const TOKEN_INVALID = "The API token is not valid (revoked, expired or unknown); make a new one in Settings → Tokens";

const text = (value: unknown) => JSON.stringify(value, null, 2);

function result(answer: StoredAnswer): CallToolResult {
  if (!answer.ok) return { isError: true, content: [{ type: "text", text: `${answer.code}: ${answer.message}` }] };
  const data = answer.data;
  const structured =
    data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  return { content: [{ type: "text", text: text(data) }], ...(structured ? { structuredContent: structured } : {}) };
}

const refusal = (error: unknown): CallToolResult => {
  if (error instanceof TRPCError) return result({ ok: false, code: error.code, message: error.message });
  if (error instanceof IdempotencyError) return result({ ok: false, code: "CONFLICT", message: error.message });
  throw error;
};

export function createRalphMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: "ralph-control", title: "Ralph Control", version: APP_VERSION },
    { capabilities: { tools: {}, resources: {} } },
  );
  const callerFor = async (): Promise<{ actor: Actor; caller: Caller }> => {
    const actor = await options.actor();
    if (!actor) throw new TRPCError({ code: "UNAUTHORIZED", message: TOKEN_INVALID });
    return { actor, caller: createCaller(createContext({ services: options.services, actor })) };
  };

  const run = async (spec: McpToolSpec, args: Record<string, unknown>): Promise<CallToolResult> => {
    try {
      const { actor, caller } = await callerFor();
      const call = procedureOf(caller, spec.procedure);
      if (!isMutating(spec)) return result({ ok: true, data: await call(args) });
      const { idempotencyKey, ...input } = args;
      const answer = await idempotent(
        options.services.db,
        {
          userId: actor.id ?? `local:${actor.email}`,
          key: String(idempotencyKey),
          tool: spec.name,
          args: input,
          now: options.services.engine.now(),
        },
        () => call(input),
      );
      return result(answer);
    } catch (error) {
      return refusal(error);
    }
  };

  for (const spec of MCP_TOOLS) {
    server.registerTool(
      spec.name,
      { title: spec.title, description: spec.description, inputSchema: toolInput(spec), annotations: spec.annotations },
      (args: Record<string, unknown>) => run(spec, args),
    );
  }

  const read = async (uri: URL, load: (caller: Caller) => Promise<unknown>): Promise<ReadResourceResult> => {
    const { caller } = await callerFor();
    return { contents: [{ uri: uri.href, mimeType: "application/json", text: text(await load(caller)) }] };
  };
  const listLoops = async (suffix: string, what: string) => {
    const { caller } = await callerFor();
    const { items } = await caller.loops.list({ limit: 50 });
    return {
      resources: items.map((loop) => ({
        uri: `ralph://loops/${loop.id}/${suffix}`,
        name: `${loop.name || loop.id} — ${what}`,
        mimeType: "application/json",
      })),
    };
  };
  const idOf = (variables: Record<string, string | string[]>) => String(variables.id);

  server.registerResource(
    "loop-report",
    new ResourceTemplate("ralph://loops/{id}/report", { list: () => listLoops("report", "report") }),
    {
      title: "Loop report",
      description: "The loop's report, redacted as a share link is",
      mimeType: "application/json",
    },
    (uri, variables) => read(uri, async (caller) => (await caller.loops.exportReport({ id: idOf(variables) })).report),
  );
  server.registerResource(
    "loop-latest-iteration",
    new ResourceTemplate("ralph://loops/{id}/iterations/latest", {
      list: () => listLoops("iterations/latest", "latest iteration"),
    }),
    {
      title: "Latest iteration",
      description: "The loop's latest iteration as the API records it",
      mimeType: "application/json",
    },
    (uri, variables) =>
      read(uri, async (caller) => (await caller.loops.iterations({ id: idOf(variables), limit: 1 })).items[0] ?? null),
  );
  return server;
}
