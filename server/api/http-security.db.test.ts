// The tRPC endpoint over real HTTP (same handler as the Next route): session
// cookies, CSRF and content-type refusals, a viewer's forged control, bad
// input, and the sign-in rate limit as the browser sees them.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { createUser } from "../../test/auth-fixtures";
import { HttpClient, startAppHttpServer, type AppHttpServer } from "../../test/http-app-server";
import { servicesWithoutJobs } from "../../test/trpc-http-server";

describeEachProvider("tRPC over HTTP: sessions and request safety", ({ db }) => {
  let server: AppHttpServer;
  let loopId: string;
  beforeAll(async () => {
    server = await startAppHttpServer(servicesWithoutJobs(db()));
    loopId = randomUUID();
    await db().prisma.loop.create({
      data: { id: loopId, goal: "g", agentKind: "demo", config: {}, status: "running" },
    });
  });
  afterAll(() => server.close());

  async function signedIn(role: "viewer" | "operator" | "admin") {
    const user = await createUser(db(), role);
    const client = new HttpClient(server.origin);
    const res = await client.call("auth.signIn", { email: user.email, password: user.password });
    expect(res.status).toBe(200);
    return { user, client };
  }

  it("sign-in sets an HttpOnly, SameSite=Lax session cookie; Secure when served over https", async () => {
    const user = await createUser(db(), "viewer");
    const plain = await new HttpClient(server.origin).call("auth.signIn", {
      email: user.email,
      password: user.password,
    });
    expect(plain.setCookie).toMatch(/^ralph_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const tls = await new HttpClient(server.origin).call(
      "auth.signIn",
      { email: user.email, password: user.password },
      "mutation",
      { "x-forwarded-proto": "https" },
    );
    expect(tls.setCookie).toMatch(/; Secure$/);
    expect(plain.text).not.toContain(plain.setCookie!.split(";")[0]!.split("=")[1]!);
  });

  it("the cookie is the identity: anonymous is 401, signed in sees data, signed out is 401 again", async () => {
    const anonymous = await new HttpClient(server.origin).call("loops.list", {}, "query");
    expect(anonymous).toMatchObject({ status: 401, error: { message: "Sign in first" } });
    const { user, client } = await signedIn("viewer");
    expect((await client.call("auth.me", undefined, "query")).data).toMatchObject({
      email: user.email,
      role: "viewer",
    });
    expect((await client.call("loops.list", {}, "query")).status).toBe(200);
    const stale = client.cookie;
    const out = await client.call("auth.signOut", undefined);
    expect(out.setCookie).toMatch(/^ralph_session=; .*Max-Age=0/);
    const replay = new HttpClient(server.origin);
    replay.cookie = stale;
    const after = await replay.call("loops.list", {}, "query");
    expect(after.status).toBe(401);
    // The dead cookie is cleared, so the next page load goes to sign-in.
    expect(after.setCookie).toMatch(/Max-Age=0/);
  });

  it("refuses cross-site form posts, foreign origins and missing origins even with a valid operator session", async () => {
    const { client } = await signedIn("operator");
    const kill = (headers: Record<string, string>, body = JSON.stringify({ json: { id: loopId } })) =>
      fetch(`${server.origin}/api/trpc/loops.controls.kill`, {
        method: "POST",
        body,
        headers: { cookie: client.cookie!, ...headers },
      });

    const form = await kill(
      { "content-type": "application/x-www-form-urlencoded", origin: server.origin },
      `id=${loopId}`,
    );
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({
      error: { code: "UNSUPPORTED_MEDIA_TYPE", message: expect.stringContaining("application/json") },
    });
    const textPlain = await kill({ "content-type": "text/plain", origin: server.origin });
    expect(textPlain.status).toBe(415);
    const foreign = await kill({ "content-type": "application/json", origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({
      error: { code: "FORBIDDEN", message: expect.stringContaining("evil.example") },
    });
    expect((await kill({ "content-type": "application/json" })).status).toBe(403);
    expect(
      (await kill({ "content-type": "application/json", origin: server.origin, "sec-fetch-site": "cross-site" }))
        .status,
    ).toBe(403);
    // Mutations never run on GET.
    const get = await fetch(
      `${server.origin}/api/trpc/loops.controls.kill?input=${encodeURIComponent(JSON.stringify({ json: { id: loopId } }))}`,
      { headers: { cookie: client.cookie! } },
    );
    expect(get.status).toBe(405);
    expect(await db().prisma.controlRequest.count({ where: { loopId } })).toBe(0);
    // The same request, done properly, goes through.
    expect((await kill({ "content-type": "application/json", origin: server.origin })).status).toBe(200);
    expect(await db().prisma.controlRequest.count({ where: { loopId } })).toBe(1);
  });

  it("the audit log names the signed-in user behind every control", async () => {
    const { user, client } = await signedIn("operator");
    // A loop of its own: the one above already has a kill pending, and a second interrupt would be refused.
    const loopId = randomUUID();
    await db().prisma.loop.create({
      data: { id: loopId, goal: "g", agentKind: "demo", config: {}, status: "running" },
    });
    expect((await client.call("loops.controls.interrupt", { id: loopId, reason: "checking the audit" })).status).toBe(
      200,
    );
    const request = await db().prisma.controlRequest.findFirstOrThrow({
      where: { loopId, kind: "interrupt" },
      orderBy: { createdAt: "desc" },
    });
    expect(request).toMatchObject({ actorId: user.id, actor: user.email, reason: "checking the audit" });
    const event = await db().prisma.loopEvent.findFirstOrThrow({
      where: { loopId, type: "control_requested" },
      orderBy: { id: "desc" },
    });
    expect(event).toMatchObject({ actorId: user.id, actor: user.email, reason: "checking the audit" });
  });

  it("a viewer's forged control request is FORBIDDEN and changes nothing", async () => {
    const { client } = await signedIn("viewer");
    const before = await db().prisma.controlRequest.count({ where: { loopId } });
    for (const path of ["loops.controls.kill", "loops.controls.terminate", "loops.controls.interrupt"]) {
      const res = await client.call(path, { id: loopId, reason: "forged" });
      expect(res.status).toBe(403);
      expect(res.error).toMatchObject({ message: "This needs the operator role", data: { code: "FORBIDDEN" } });
    }
    expect(
      (await client.call("users.create", { email: "x@y.z", role: "admin", password: "whatever-12345" })).status,
    ).toBe(403);
    expect(await db().prisma.controlRequest.count({ where: { loopId } })).toBe(before);
  });

  it("bad input is a 4xx that says what is wrong, never a 500 or a stack trace", async () => {
    const { client } = await signedIn("admin");
    const invalid = await client.call("users.create", { email: "not-an-email", role: "superuser", password: "x" });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toMatch(/valid email/);
    const raw = await fetch(`${server.origin}/api/trpc/users.create`, {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json", origin: server.origin, cookie: client.cookie! },
    });
    expect(raw.status).toBe(400);
    const weak = await client.call("users.create", { email: "weak@ralph.test", role: "viewer", password: "short" });
    expect(weak).toMatchObject({ status: 400, error: { message: "Passwords need at least 12 characters" } });
    const missing = await client.call("users.update", { id: "no-such-user", role: "viewer" });
    expect(missing.status).toBe(404);
    for (const text of [invalid.text, await raw.text(), weak.text, missing.text])
      expect(text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  });

  it("failed sign-ins hit the limit with a 429 and a clear message", async () => {
    const user = await createUser(db(), "operator");
    const client = new HttpClient(server.origin);
    let last = await client.call("auth.signIn", { email: user.email, password: "wrong-password-0" });
    for (let i = 1; last.status === 401 && i < 50; i++)
      last = await client.call("auth.signIn", { email: user.email, password: `wrong-password-${i}` });
    expect(last.status).toBe(429);
    expect(last.error?.message).toMatch(/^Too many failed sign-ins for this account\. Try again in \d+ minutes?\.$/);
  });
});
