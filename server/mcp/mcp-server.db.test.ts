// Issue 35, done-when 1: the SDK's own Client, over the in-memory transport
// and over streamable HTTP against the route's handler, lists the tools with
// the spec's hints, starts a real loop, answers its question and approves its
// gate, leaving the same audit trail (who and why) as the UI's calls; and the
// faults: a revoked token, a viewer's token on a destructive tool, a key
// repeated with another body.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { callerAs, createUser } from "../../test/auth-fixtures";
import { describeEachProvider } from "../../test/db-providers";
import { startDefinitionRuntime } from "../../test/definition-runtime";
import { startAppHttpServer, type AppHttpServer } from "../../test/http-app-server";
import {
  askingDefinition,
  askingWorkspace,
  call,
  loopStatus,
  operatorTrail,
  QUESTION,
  runAskingScenario,
} from "../../test/mcp-scenario";
import { makeRepo, sh } from "../../test/landing-fixtures";
import { loopWithBranch } from "../../test/landing-loop";
import { tempRoot } from "../agents/fixtures/harness";
import { loopBranch } from "../agents/git/git-workspace";
import { createContext } from "../api/context";
import { createCaller } from "../api/root";
import { resolveApiToken } from "../auth/api-tokens.service";
import type { LoopServices } from "../loops/loop-services";
import { createRalphMcpServer } from "./mcp-server";
import { MCP_ENDPOINT } from "./mcp-http";

const tmp = tempRoot("ralph-mcp-");
afterAll(() => tmp.cleanup());

const EXPECTED_HINTS = {
  list: { readOnlyHint: true },
  get: { readOnlyHint: true },
  report: { readOnlyHint: true },
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  start: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  interrupt: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  kill: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  resume: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  handoff: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  nudge: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  approve: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  reject: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  answer: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  land: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
};

describeEachProvider("the MCP server", ({ db }) => {
  let services: LoopServices;
  let server: AppHttpServer;
  const clients: Client[] = [];
  beforeAll(async () => {
    services = startDefinitionRuntime(db(), { root: tmp.root, instanceId: `mcp-test-${process.pid}` }).services;
    server = await startAppHttpServer(services);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
  });
  afterAll(async () => {
    await server.close();
    await (services.dispatcher as { stop?: () => Promise<void> }).stop?.();
  });

  // An admin: only admins choose a loop's workspace folder (the agent policy), and the scenario's agent lives in one.
  async function tokenFor(role: "viewer" | "operator" | "admin", name = "mcp") {
    const user = await createUser(db(), role);
    const made = await callerAs(db(), user.actor).tokens.create({ name });
    return { user, token: made.token, tokenId: made.id };
  }

  /** The SDK's client on the in-memory pair, the server reading the caller from the token on every call. */
  async function inMemoryClient(token: string) {
    const mcp = createRalphMcpServer({ services, actor: () => resolveApiToken(db(), token, Date.now()) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  }

  async function httpClient(token: string) {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.origin}${MCP_ENDPOINT}`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  it.each([
    ["in-memory", inMemoryClient],
    ["streamable HTTP", httpClient],
  ] as const)(
    "over %s: tools with the spec's hints; start, answer, approve; the audit trail equals the UI's",
    async (_transport, connect) => {
      const { user, token } = await tokenFor("admin");
      const client = await connect(token);
      const { tools } = await client.listTools();
      expect(Object.fromEntries(tools.map((t) => [t.name, t.annotations]))).toEqual(
        Object.fromEntries(
          Object.entries(EXPECTED_HINTS).map(([name, hints]) => [name, { ...hints, openWorldHint: false }]),
        ),
      );
      const approve = tools.find((t) => t.name === "approve")!;
      expect(approve.inputSchema.required).toEqual(expect.arrayContaining(["id", "idempotencyKey"]));
      expect(tools.find((t) => t.name === "get")!.inputSchema.properties).not.toHaveProperty("idempotencyKey");

      const { id, got } = await runAskingScenario(client, db(), askingWorkspace(tmp.root), `${_transport}-${user.id}`);
      expect(got.structuredContent).toMatchObject({ loop: { id, status: "needs_attention" } });
      expect(JSON.stringify(got.structuredContent)).toContain(QUESTION);

      // The same steps from the UI (the signed-in user's session, no token) leave the same trail.
      const ui = createCaller(createContext({ services, actor: user.actor }));
      const uiLoop = await ui.loops.create({ ...askingDefinition(askingWorkspace(tmp.root)), start: true } as never);
      await loopStatus(db(), uiLoop.id, "needs_attention");
      await ui.loops.controls.answer({ id: uiLoop.id, message: "Yes, staging.", reason: "the operator answered" });
      await loopStatus(db(), uiLoop.id, "awaiting_approval");
      await ui.loops.controls.approve({ id: uiLoop.id, comment: "ship it", reason: "looks right" });
      await loopStatus(db(), uiLoop.id, "completed");

      const viaMcp = await operatorTrail(db(), id, user.id);
      const viaUi = await operatorTrail(db(), uiLoop.id, user.id);
      expect(viaMcp.length).toBeGreaterThanOrEqual(3);
      // Who: the same user, named with the token it used (as every bearer call is); why: the same reasons.
      expect(viaMcp).toEqual(viaUi.map((e) => ({ ...e, actor: `${e.actor} (token "mcp")` })));
      expect(viaMcp.map((e) => e.reason)).toEqual(expect.arrayContaining(["the operator answered", "looks right"]));

      // The resources: the loop's report and its latest iteration.
      const report = await client.readResource({ uri: `ralph://loops/${id}/report` });
      expect(JSON.parse((report.contents[0] as { text: string }).text)).toMatchObject({ loop: { id } });
      const latest = await client.readResource({ uri: `ralph://loops/${id}/iterations/latest` });
      expect(JSON.parse((latest.contents[0] as { text: string }).text)).toMatchObject({ number: 2 });
    },
    120_000,
  );

  it("a repeated key answers the first answer and creates nothing more; the same key with another body is refused", async () => {
    const { user, token } = await tokenFor("admin");
    const client = await inMemoryClient(token);
    const definition = { ...askingDefinition(askingWorkspace(tmp.root)), start: false };
    const first = await call(client, "create", { ...definition, idempotencyKey: "create-once-1234" });
    const again = await call(client, "create", { ...definition, idempotencyKey: "create-once-1234" });
    expect(first.isError).toBeFalsy();
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(await db().prisma.loop.count({ where: { createdById: user.id } })).toBe(1);

    const other = await call(client, "create", {
      ...definition,
      goal: "another goal",
      idempotencyKey: "create-once-1234",
    });
    expect(other).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/already used for a different request/) }],
    });
    // The same key on another tool is another request too.
    const id = String(first.structuredContent!.id);
    const start = await call(client, "start", { id, idempotencyKey: "create-once-1234" });
    expect(start.isError).toBe(true);
    expect(await db().prisma.loop.count({ where: { createdById: user.id } })).toBe(1);

    // A refusal the API audited (CONFLICT: not waiting for an answer) is kept too: a retry audits nothing more.
    const early = { id, message: "too early", idempotencyKey: "answer-early-1" };
    expect((await call(client, "answer", early)).isError).toBe(true);
    expect((await call(client, "answer", early)).isError).toBe(true);
    expect(await db().prisma.controlRequest.count({ where: { loopId: id, kind: "answer" } })).toBe(1);
  });

  it("a viewer's token is refused on destructive and mutating tools as the API refuses it, and may read", async () => {
    const admin = await tokenFor("admin");
    const created = await call(await inMemoryClient(admin.token), "create", {
      ...askingDefinition(askingWorkspace(tmp.root)),
      start: false,
      idempotencyKey: "fixture-for-viewer",
    });
    const id = String(created.structuredContent!.id);
    const { token } = await tokenFor("viewer");
    for (const connect of [inMemoryClient, httpClient]) {
      const client = await connect(token);
      for (const name of ["kill", "reject", "interrupt", "approve"]) {
        const refused = await call(client, name, { id, idempotencyKey: `viewer-${name}-1` });
        expect(refused).toMatchObject({
          isError: true,
          content: [{ text: "FORBIDDEN: This needs the operator role" }],
        });
      }
      expect((await call(client, "get", { id })).isError).toBeFalsy();
    }
    expect(await db().prisma.controlRequest.count({ where: { loopId: id } })).toBe(0);
    // Nothing was remembered for the refused calls: the key is free.
    expect(await db().prisma.idempotencyKey.count({ where: { key: { startsWith: "viewer-" } } })).toBe(0);
  });

  it("land queues a loop's branch in the merge queue, once per key, audited as the API's call; a viewer is refused", async () => {
    const { user, token } = await tokenFor("operator");
    const repo = makeRepo(join(tmp.root, `land-${user.id}`), { "README.md": "readme\n" });
    const { id: loopId, wt } = await loopWithBranch(db(), repo, join(tmp.root, `land-wt-${user.id}`), ["true"]);
    writeFileSync(join(wt, "CHANGE.md"), "a change\n");
    sh(wt, "add", "-A");
    sh(wt, "commit", "-q", "-m", "change");
    const client = await inMemoryClient(token);
    const args = { loopId, targetBranch: "main", reason: "ship it", idempotencyKey: `land-${loopId}` };
    const first = await call(client, "land", args);
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ loopId, targetBranch: "main", status: "queued", position: 1 });
    expect((await call(client, "land", args)).structuredContent).toEqual(first.structuredContent);
    expect(await db().prisma.landingEntry.count({ where: { loopId } })).toBe(1);
    const queued = await db().prisma.loopEvent.findMany({ where: { loopId, type: "landing_queued" } });
    expect(queued.map((e) => [e.actorId, e.actor, e.reason])).toEqual([
      [user.id, `${user.actor.email} (token "mcp")`, "ship it"],
    ]);
    // Nothing moved yet: the queue lands it after its evidence passes again.
    expect(sh(repo, "rev-parse", "main")).toBe(sh(repo, "rev-parse", `${loopBranch(loopId)}~1`));

    const viewer = await inMemoryClient((await tokenFor("viewer")).token);
    expect(await call(viewer, "land", { ...args, idempotencyKey: `viewer-land-${loopId}` })).toMatchObject({
      isError: true,
      content: [{ text: "FORBIDDEN: This needs the operator role" }],
    });
  });

  it("a revoked token stops working at its next call: a tool error in process, 401 over HTTP", async () => {
    const { user, token, tokenId } = await tokenFor("operator", "doomed");
    const inMemory = await inMemoryClient(token);
    const http = await httpClient(token);
    expect((await call(inMemory, "list", {})).isError).toBeFalsy();
    expect((await call(http, "list", {})).isError).toBeFalsy();
    await callerAs(db(), user.actor).tokens.revoke({ id: tokenId });
    expect(await call(inMemory, "list", {})).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^UNAUTHORIZED: The API token is not valid/) }],
    });
    await expect(call(http, "list", {})).rejects.toThrow(/401|not valid/);
    const raw = await fetch(`${server.origin}${MCP_ENDPOINT}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toMatch(/^Bearer/);
    // No token at all, or a session cookie instead of one: 401 too.
    const none = await fetch(`${server.origin}${MCP_ENDPOINT}`, { method: "POST", body: "{}" });
    expect(none.status).toBe(401);
  });
});
