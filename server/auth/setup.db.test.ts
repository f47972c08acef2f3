// First-run setup over real sockets: only from loopback, never through a
// proxy header, exactly once; and the start-up admin from RALPH_ADMIN_*.
import { randomUUID } from "node:crypto";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { HttpClient, startAppHttpServer, type AppHttpServer } from "../../test/http-app-server";
import { servicesWithoutJobs } from "../../test/trpc-http-server";
import { ensureEnvAdmin } from "./setup.service";
import { resolveSession } from "./sessions.service";
import { signIn } from "./sign-in.service";

/** An address of this machine that is not loopback, if it has one. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

const admin = (n: number) => ({
  email: `first-admin-${n}@ralph.test`,
  password: "first-admin-password",
  name: "First",
});

describeEachProvider("first-run setup", ({ db }) => {
  let server: AppHttpServer;
  beforeAll(async () => {
    // Listening on every interface, so the LAN address reaches it too.
    server = await startAppHttpServer(servicesWithoutJobs(db()), "0.0.0.0");
  });
  afterAll(() => server.close());

  it.skipIf(!lanAddress)("refuses setup from a non-loopback address, whatever X-Forwarded-For claims", async () => {
    const remote = new HttpClient(`http://${lanAddress}:${server.port}`);
    const status = await remote.call("auth.setupStatus", undefined, "query", { "x-forwarded-for": "127.0.0.1" });
    expect(status.data).toMatchObject({ needed: true, allowedHere: false });
    const refused = await remote.call("auth.setup", admin(0));
    expect(refused.status).toBe(403);
    expect(refused.error?.message).toMatch(/only available on the machine the server runs on/);
    expect(await db().prisma.user.count()).toBe(0);
  });

  it("refuses setup from loopback when the request was forwarded (a proxy on the same host)", async () => {
    const local = new HttpClient(server.origin);
    const refused = await local.call("auth.setup", admin(0), "mutation", { "x-forwarded-for": "203.0.113.50" });
    expect(refused.status).toBe(403);
    expect(refused.error?.message).toMatch(/proxy/);
    // The CSRF guard applies too: a page on another site cannot set the instance up.
    expect((await new HttpClient(server.origin, "http://evil.example").call("auth.setup", admin(0))).status).toBe(403);
  });

  it("creates exactly one first admin from loopback, even when setups race, and signs them in", async () => {
    const clients = [1, 2, 3].map(() => new HttpClient(server.origin));
    expect((await clients[0]!.call("auth.setupStatus", undefined, "query")).data).toMatchObject({
      needed: true,
      allowedHere: true,
    });
    const results = await Promise.all(clients.map((c, i) => c.call("auth.setup", admin(i + 1))));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).map((r) => r.error?.message)).toEqual([
      "Setup is already done; sign in instead",
      "Setup is already done; sign in instead",
    ]);
    expect(await db().prisma.user.count()).toBe(1);
    const winner = clients[results.indexOf(won[0]!)]!;
    expect((await winner.call("auth.me", undefined, "query")).data).toMatchObject({ role: "admin" });
  });

  it("is gone once an admin exists", async () => {
    const local = new HttpClient(server.origin);
    expect((await local.call("auth.setupStatus", undefined, "query")).data).toMatchObject({
      needed: false,
      allowedHere: false,
    });
    const again = await local.call("auth.setup", admin(9));
    expect(again.status).toBe(409);
    expect(await db().prisma.user.count()).toBe(1);
  });

  it("RALPH_ADMIN_* creates the admin, and repairs it (role, enabled, password) on a later start", async () => {
    const email = "env-admin@ralph.test";
    expect(await ensureEnvAdmin(db(), email, "env-admin-password-1", Date.now(), randomUUID)).toEqual({
      created: true,
      changed: true,
    });
    expect(await ensureEnvAdmin(db(), email, "env-admin-password-1", Date.now(), randomUUID)).toEqual({
      created: false,
      changed: false,
    });
    const session = await signIn(db(), {
      email,
      password: "env-admin-password-1",
      ip: "127.0.0.1",
      now: Date.now(),
      newId: randomUUID,
    });
    await db().prisma.user.update({ where: { email }, data: { role: "viewer", disabledAt: new Date() } });
    expect(await ensureEnvAdmin(db(), email, "env-admin-password-2", Date.now(), randomUUID)).toEqual({
      created: false,
      changed: true,
    });
    expect(await db().prisma.user.findUniqueOrThrow({ where: { email } })).toMatchObject({
      role: "admin",
      disabledAt: null,
    });
    // A new password ends the sessions opened with the old one.
    expect(await resolveSession(db(), session.token, Date.now())).toBeNull();
  });
});
