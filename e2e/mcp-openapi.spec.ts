// Issue 35 against the built app: the Next routes /api/mcp and /api/openapi.json.
// The SDK's own MCP client, over streamable HTTP with an API token made in the
// app, lists the tools with their hints and reads a loop; without a token the
// route answers 401. The OpenAPI document is served and names every procedure.
import { expect, test } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { signIn, trpc } from "./support/auth";

test("the MCP route serves the SDK's client with an API token; the OpenAPI document is served", async ({
  page,
  request,
  baseURL,
}) => {
  await signIn(page, "operator");
  const made = await trpc(page.request, "tokens.create", { name: `e2e-mcp-${Date.now()}` });
  expect(made.status, JSON.stringify(made.error)).toBe(200);
  const token = (made.data as { token: string }).token;

  const client = new Client({ name: "e2e", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "kill")?.annotations).toMatchObject({ destructiveHint: true });
    const created = await client.callTool({
      name: "create",
      arguments: {
        goal: "described over MCP",
        agent: { kind: "demo", delayMs: 0, failureRate: 0, stepsToComplete: 1 },
        loop: { completion: { allowNoEvidence: true } },
        start: false,
        idempotencyKey: `e2e-${Date.now()}`,
      },
    });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const id = (created.structuredContent as { id: string }).id;
    const got = await client.callTool({ name: "get", arguments: { id } });
    expect(got.structuredContent).toMatchObject({ loop: { id, status: "draft" } });
  } finally {
    await client.close();
  }

  const anonymous = await request.post("/api/mcp", { data: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
  expect(anonymous.status()).toBe(401);

  const openapi = await request.get("/api/openapi.json");
  expect(openapi.status()).toBe(200);
  const doc = (await openapi.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toBe("3.1.0");
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining(["/api/trpc/loops.list", "/api/trpc/loops.controls.approve"]),
  );
});
