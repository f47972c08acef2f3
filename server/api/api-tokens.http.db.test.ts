// API tokens over real HTTP (same handler as the Next route): bearer calls
// skip the origin check but are judged by the token alone; the token's role
// is capped by its owner's; revocation, expiry and a disabled owner take
// effect on the next call; every action names the token in the audit log.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { callerAs, createUser } from "../../test/auth-fixtures";
import { describeEachProvider } from "../../test/db-providers";
import { HttpClient, startAppHttpServer, type AppHttpServer } from "../../test/http-app-server";
import { servicesWithoutJobs } from "../../test/trpc-http-server";
import { updateAccount } from "../auth/users.service";

describeEachProvider("API tokens over HTTP", ({ db }) => {
  let server: AppHttpServer;
  beforeAll(async () => {
    server = await startAppHttpServer(servicesWithoutJobs(db()));
  });
  afterAll(() => server.close());

  const runningLoop = async () => {
    const id = randomUUID();
    await db().prisma.loop.create({ data: { id, goal: "g", agentKind: "demo", config: {}, status: "running" } });
    return id;
  };

  /** A client that sends only the bearer token: no cookie, no Origin, as the CLI does. */
  const bearer = (token: string) => {
    const client = new HttpClient(server.origin);
    const call = (path: string, input: unknown, kind: "query" | "mutation" = "mutation") =>
      fetch(
        kind === "query"
          ? `${server.origin}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`
          : `${server.origin}/api/trpc/${path}`,
        kind === "query"
          ? { headers: { authorization: `Bearer ${token}` } }
          : {
              method: "POST",
              body: JSON.stringify({ json: input }),
              headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            },
      );
    return { client, call };
  };

  async function tokenFor(role: "viewer" | "operator" | "admin", tokenRole?: "viewer" | "operator" | "admin") {
    const user = await createUser(db(), role);
    const made = await callerAs(db(), user.actor).tokens.create({ name: `ci-${role}`, role: tokenRole });
    return { user, ...made };
  }

  it("a token is shown once, stored as a hash, and works as Bearer without an Origin header", async () => {
    const { user, token, id } = await tokenFor("operator");
    expect(token).toMatch(/^rct_[A-Za-z0-9_-]{43}$/);
    const row = await db().prisma.apiToken.findUniqueOrThrow({ where: { id } });
    expect(JSON.stringify(row)).not.toContain(token.slice(4));
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.lastUsedAt).toBeNull();

    const { call } = bearer(token);
    const me = await call("auth.me", undefined, "query");
    expect(me.status).toBe(200);
    expect(((await me.json()) as { result: { data: { json: { email: string } } } }).result.data.json.email).toBe(
      user.email,
    );
    expect((await db().prisma.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).not.toBeNull();

    // A mutation with no Origin at all passes the request guard, and the audit log names the token.
    const loopId = await runningLoop();
    const kill = await call("loops.controls.kill", { id: loopId, reason: "from CI" });
    expect(kill.status).toBe(200);
    const event = await db().prisma.loopEvent.findFirstOrThrow({ where: { loopId, type: "control_requested" } });
    expect(event).toMatchObject({ actorId: user.id, actor: `${user.email} (token "ci-operator")`, reason: "from CI" });

    // The listing never shows the value.
    const listed = await callerAs(db(), user.actor).tokens.list();
    expect(listed).toEqual([expect.objectContaining({ id, name: "ci-operator", role: "operator", active: true })]);
    expect(JSON.stringify(listed)).not.toContain(token.slice(8));
  });

  it("a revoked token gets 401 on its very next call, and the revocation is audited", async () => {
    const { user, token, id } = await tokenFor("operator");
    const { call } = bearer(token);
    expect((await call("loops.list", {}, "query")).status).toBe(200);
    await callerAs(db(), user.actor).tokens.revoke({ id });
    const after = await call("loops.list", {}, "query");
    expect(after.status).toBe(401);
    expect((await call("loops.controls.kill", { id: await runningLoop() })).status).toBe(401);
    const audit = await db().prisma.loopEvent.findMany({
      where: { type: { in: ["api_token_created", "api_token_revoked"] }, actorId: user.id },
      orderBy: { id: "asc" },
    });
    expect(audit.map((e) => [e.type, e.reason])).toEqual([
      ["api_token_created", 'API token "ci-operator" created'],
      ["api_token_revoked", 'API token "ci-operator" revoked'],
    ]);
  });

  it("a viewer token cannot call a mutation, even when its owner is an operator", async () => {
    for (const { token } of [await tokenFor("viewer"), await tokenFor("operator", "viewer")]) {
      const { call } = bearer(token);
      expect((await call("loops.list", {}, "query")).status).toBe(200);
      const loopId = await runningLoop();
      const res = await call("loops.controls.kill", { id: loopId });
      expect(res.status).toBe(403);
      expect(await db().prisma.controlRequest.count({ where: { loopId } })).toBe(0);
    }
  });

  it("a token's role is never higher than its owner's, now or later", async () => {
    const operator = await createUser(db(), "operator");
    await expect(callerAs(db(), operator.actor).tokens.create({ name: "sneaky", role: "admin" })).rejects.toThrow(
      /cannot give a token the admin role/,
    );
    const { user, token } = await tokenFor("admin");
    const admin = await createUser(db(), "admin");
    const { call } = bearer(token);
    expect((await call("users.list", undefined, "query")).status).toBe(200);
    await updateAccount(db(), admin.actor, user.id, { role: "viewer" }, Date.now());
    expect((await call("users.list", undefined, "query")).status).toBe(403);
    expect((await call("loops.controls.kill", { id: await runningLoop() })).status).toBe(403);
    await updateAccount(db(), admin.actor, user.id, { disabled: true }, Date.now());
    expect((await call("loops.list", {}, "query")).status).toBe(401);
  });

  it("expired, malformed and cookie-borne tokens are refused; a bad bearer never falls back to the cookie", async () => {
    const { user, token, id } = await tokenFor("operator");
    // A token sent as the session cookie is not a session.
    const asCookie = await fetch(`${server.origin}/api/trpc/loops.list?input=${encodeURIComponent('{"json":{}}')}`, {
      headers: { cookie: `ralph_session=${token}` },
    });
    expect(asCookie.status).toBe(401);
    for (const header of ["Bearer", "Bearer nonsense", `Basic ${token}`, `Bearer ${token}x`]) {
      const res = await fetch(`${server.origin}/api/trpc/loops.list?input=${encodeURIComponent('{"json":{}}')}`, {
        headers: { authorization: header },
      });
      expect(res.status, header).toBe(401);
    }
    // A signed-in browser session plus a wrong bearer is still refused.
    const browser = new HttpClient(server.origin);
    expect((await browser.call("auth.signIn", { email: user.email, password: user.password })).status).toBe(200);
    const mixed = await browser.call("loops.list", {}, "query", { authorization: "Bearer rct_" + "A".repeat(43) });
    expect(mixed.status).toBe(401);
    // Without the bearer, that same cookie still needs a same-origin mutation.
    const noOrigin = await fetch(`${server.origin}/api/trpc/loops.controls.kill`, {
      method: "POST",
      body: JSON.stringify({ json: { id: await runningLoop() } }),
      headers: { "content-type": "application/json", cookie: browser.cookie! },
    });
    expect(noOrigin.status).toBe(403);

    await db().prisma.apiToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await bearer(token).call("loops.list", {}, "query")).status).toBe(401);
  });

  it("a token cannot mint tokens, and owners see only their own (admins may see all)", async () => {
    const { token, user } = await tokenFor("admin");
    const minted = await bearer(token).call("tokens.create", { name: "child" });
    expect(minted.status).toBe(403);
    const other = await tokenFor("viewer");
    const mine = await callerAs(db(), other.user.actor).tokens.list();
    expect(mine.map((t) => t.id)).toEqual([other.id]);
    await expect(callerAs(db(), other.user.actor).tokens.list({ all: true })).rejects.toThrow(/Only admins/);
    await expect(callerAs(db(), other.user.actor).tokens.revoke({ id: (await tokenFor("viewer")).id })).rejects.toThrow(
      /not found/,
    );
    const all = await callerAs(db(), user.actor).tokens.list({ all: true });
    expect(all.map((t) => t.id)).toContain(other.id);
  });
});
