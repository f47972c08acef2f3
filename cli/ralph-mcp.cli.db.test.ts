// `ralph mcp` as an MCP host starts it: the SDK's StdioClientTransport spawns
// the real bin, which relays to the running app's /api/mcp with its token. The
// tools and their hints are the server's; a demo loop is started and its
// completion gate approved over stdio; a viewer's token is refused a
// destructive tool; a revoked token's call fails with the server's reason.
import { afterAll, beforeAll, expect, it } from "vitest";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createUser } from "../test/auth-fixtures";
import { describeEachProvider } from "../test/db-providers";
import { startCliApp, type CliApp } from "../test/cli-app";
import { call, GATED_DEMO, loopStatus } from "../test/mcp-scenario";
import { createApiToken, revokeTokenById } from "../server/auth/api-tokens.service";

describeEachProvider("ralph mcp over stdio", ({ db }) => {
  let app: CliApp;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await startCliApp(db());
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await app?.stop();
  });

  async function tokenFor(role: "viewer" | "operator") {
    const user = await createUser(db(), role);
    const made = await createApiToken(
      db(),
      user.actor,
      { name: "stdio" },
      { now: Date.now(), newId: () => crypto.randomUUID() },
    );
    return { user, ...made };
  }

  async function stdioClient(token: string) {
    const client = new Client({ name: "stdio-test", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(process.cwd(), "cli/ralph.mjs"), "mcp"],
        // The SDK passes only a safe default environment (PATH, HOME, ...): nothing else reaches the bin.
        env: { ...getDefaultEnvironment(), HOME: app.home, RALPH_URL: app.server.origin, RALPH_TOKEN: token },
        stderr: "pipe",
      }),
    );
    clients.push(client);
    return client;
  }

  it("lists the server's tools, starts a gated loop and approves it; a viewer is refused kill", async () => {
    const operator = await tokenFor("operator");
    const client = await stdioClient(operator.token);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "kill")!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(tools.find((t) => t.name === "list")!.annotations).toMatchObject({ readOnlyHint: true });

    const created = await call(client, "create", {
      ...GATED_DEMO,
      idempotencyKey: "stdio-create-1",
    });
    expect(created.isError).toBeFalsy();
    const id = String(created.structuredContent!.id);
    await loopStatus(db(), id, "awaiting_approval");
    const approved = await call(client, "approve", { id, comment: "ship it", idempotencyKey: "stdio-approve-1" });
    expect(approved.structuredContent).toMatchObject({ outcome: expect.stringMatching(/applied|stored/) });
    await loopStatus(db(), id, "completed");
    const approval = await db().prisma.approval.findFirstOrThrow({ where: { loopId: id } });
    expect(approval).toMatchObject({ status: "approved", comment: "ship it" });

    const viewer = await stdioClient((await tokenFor("viewer")).token);
    expect(await call(viewer, "kill", { id, idempotencyKey: "stdio-kill-1" })).toMatchObject({
      isError: true,
      content: [{ text: "FORBIDDEN: This needs the operator role" }],
    });
  }, 120_000);

  it("a revoked token: the relay answers the call with the server's refusal", async () => {
    const doomed = await tokenFor("operator");
    const client = await stdioClient(doomed.token);
    expect((await call(client, "list", {})).isError).toBeFalsy();
    await revokeTokenById(db(), doomed.user.actor, doomed.row.id, Date.now());
    await expect(call(client, "list", {})).rejects.toThrow(/401|not valid/);
  }, 60_000);
});
