// Stored secrets: admin procedures show only name, kind, set/not set and the
// last 4; the database holds ciphertext; a real webhook executor gets the
// decrypted value through the store resolver; and the value never shows up
// in any API response, event, iteration or shared page.
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { callerAs, createUser } from "../../test/auth-fixtures";
import { waitFor } from "../../test/runtime-harness";
import { chainSecretResolvers, envSecretResolver } from "../agents/secret-resolver";
import { createPorts } from "../agents/registry";
import { LocalDispatcher } from "../jobs/local-dispatcher";
import { DEFAULT_SETTINGS, type JobRuntime } from "../jobs/runtime-deps";
import { systemDeps } from "../jobs/system-deps";
import { createContext } from "../api/context";
import { createCaller } from "../api/root";
import { secretKeyFrom } from "./secret-box";
import { storeSecretResolver } from "./store-secret-resolver";

// The webhook fixture listens on loopback: an admin opened it (read when the env is first parsed).
vi.stubEnv("RALPH_AGENT_ALLOW_HOSTS", "127.0.0.1");

const SECRET = `whsec_${randomBytes(24).toString("hex")}`;
const key = secretKeyFrom(randomBytes(32));
// The process key the admin router seals with: this test's, not a key file under ./data.
(globalThis as unknown as { ralphSecretKey?: unknown }).ralphSecretKey = key;

describeEachProvider("secrets at rest", ({ db }) => {
  let webhook: Server;
  let webhookUrl: string;
  const signatures: boolean[] = [];
  beforeAll(async () => {
    // A hostile agent: checks the signature, then echoes the key back in its output.
    webhook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        signatures.push(
          req.headers["x-ralph-signature"] === `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
        );
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ output: `done; my signing key is ${SECRET}`, claim: true, data: { leaked: SECRET } }));
      });
    });
    await new Promise<void>((r) => webhook.listen(0, "127.0.0.1", r));
    webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/agent`;
  });
  afterAll(() => new Promise<void>((r) => webhook.close(() => r())));

  const resolver = (role?: () => Promise<"viewer" | "operator" | "admin">) =>
    chainSecretResolvers(
      storeSecretResolver(db, () => key, role),
      envSecretResolver,
    );
  const webhookUse = { kind: "webhook" as const, hosts: ["127.0.0.1"] };

  it("lists name, kind, set / not set and the last 4 only; stores ciphertext; updates in place; deletes", async () => {
    const admin = callerAs(db(), (await createUser(db(), "admin")).actor);
    const created = await admin.secrets.set({
      name: "SOME_PROVIDER_KEY",
      kind: "provider_key",
      value: "sk-test-abcdefghijklmnop",
    });
    expect(created).toMatchObject({ name: "SOME_PROVIDER_KEY", last4: "mnop", status: "set" });
    expect(JSON.stringify(created)).not.toContain("sk-test");
    const row = await db().prisma.secret.findUniqueOrThrow({ where: { name: "SOME_PROVIDER_KEY" } });
    expect(row.ciphertext).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(row.ciphertext).not.toContain("sk-test");

    const updated = await admin.secrets.set({
      name: "SOME_PROVIDER_KEY",
      kind: "provider_key",
      value: "sk-test-zzzzzzzzzzzz9999",
    });
    expect(updated.id).toBe(created.id);
    const list = await admin.secrets.list();
    expect(list.find((s) => s.name === "SOME_PROVIDER_KEY")).toMatchObject({ status: "set", last4: "9999" });
    expect(list.find((s) => s.name === "OPENAI_API_KEY")).toMatchObject({ status: "not set", id: null });
    expect(JSON.stringify(list)).not.toContain("sk-test");
    await admin.secrets.delete({ id: created.id });
    await expect(admin.secrets.delete({ id: created.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a value too short to redact reliably is saved with a warning in the response; a long one without", async () => {
    const admin = callerAs(db(), (await createUser(db(), "admin")).actor);
    const short = await admin.secrets.set({ name: "SHORT_KEY", kind: "other", value: "hunter2" });
    expect(short).toMatchObject({ status: "set" });
    expect(short.warning).toMatch(/7 characters long.*shorter than 8/);
    expect(JSON.stringify(short)).not.toContain("hunter2");
    const long = await admin.secrets.set({ name: "SHORT_KEY", kind: "other", value: "hunter2-but-longer" });
    expect(long.warning).toBeNull();
  });

  it("refuses bad names and empty values with a message saying what is wrong", async () => {
    const admin = callerAs(db(), (await createUser(db(), "admin")).actor);
    const bad = await admin.secrets.set({ name: "has spaces", kind: "other", value: "x" }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: "BAD_REQUEST" });
    expect(String((bad as Error).message)).toMatch(/letters, digits/);
  });

  it("an executor gets the decrypted value; nothing it emits, and no API response, carries it", async () => {
    const admin = await createUser(db(), "admin");
    const operator = await createUser(db(), "operator");
    const stored = await callerAs(db(), admin.actor).secrets.set({
      name: "WEBHOOK_KEY",
      kind: "webhook_secret",
      value: SECRET,
      scope: { roles: ["admin", "operator"], kinds: ["webhook"], hosts: ["127.0.0.1"] },
    });
    expect(await resolver().resolve({ secret: "WEBHOOK_KEY" }, webhookUse)).toBe(SECRET);
    expect(await resolver().resolve({ secret: stored.id }, webhookUse)).toBe(SECRET);
    expect(await resolver().resolve({ secret: "NO_SUCH_SECRET" }, webhookUse)).toBeUndefined();
    // Outside its scope the store refuses, by id or by name.
    await expect(resolver().resolve({ secret: stored.id }, { kind: "command", hosts: [] })).rejects.toThrow(
      /only be used by webhook/,
    );
    await expect(
      resolver().resolve({ secret: "WEBHOOK_KEY" }, { kind: "webhook", hosts: ["10.1.2.3"] }),
    ).rejects.toThrow(/only be sent to 127.0.0.1/);

    const workspace = mkdtempSync(`${tmpdir()}/ralph-secret-ws-`);
    const dispatcher = new LocalDispatcher();
    const runtime: JobRuntime = {
      db: db(),
      dispatcher,
      engine: systemDeps,
      settings: { ...DEFAULT_SETTINGS, heartbeatMs: 50 },
      instanceId: "secrets-test",
      ports: (loop) => {
        const config = loop.config as Parameters<typeof createPorts>[0];
        return createPorts(
          { ...config, scorers: config.scorers ?? [] },
          { workspaceDir: () => workspace, secrets: resolver(async () => "operator"), allowHosts: ["127.0.0.1"] },
          loop.id,
        );
      },
    };
    dispatcher.attach(runtime);
    const as = (who: typeof operator) =>
      createCaller(createContext({ services: { db: db(), dispatcher, engine: systemDeps }, actor: who.actor }));
    try {
      const created = await as(operator).loops.create({
        goal: "Use the signed webhook",
        agent: { kind: "webhook", url: webhookUrl, signingKeySecret: "WEBHOOK_KEY" },
        loop: { stop: { maxIterations: 1 }, completion: { allowNoEvidence: true } },
        start: true,
      });
      const loopId = created.id;
      await waitFor(
        () => db().prisma.loop.findUniqueOrThrow({ where: { id: loopId } }),
        (l) => !["queued", "running", "draft"].includes(l.status),
        20_000,
      );
      expect(signatures.at(-1)).toBe(true);

      const share = await as(operator).share.create({ loopId });
      const token = share.path.split("/").pop()!;
      const anonymous = callerAs(db(), null);
      const responses = [
        await as(operator).loops.byId({ id: loopId }),
        await as(operator).loops.iterations({ id: loopId }),
        await as(operator).loops.definition({ id: loopId }),
        await as(operator).events.list({ loopId, limit: 200 }),
        await as(operator).loops.list({}),
        await as(admin).secrets.list(),
        await anonymous.share.view({ token }),
        await anonymous.share.iterations({ token }),
      ];
      const iteration = await db().prisma.iteration.findFirstOrThrow({ where: { loopId } });
      expect(iteration.output).toContain("[redacted]");
      const stored = [
        await db().prisma.iteration.findMany({ where: { loopId } }),
        await db().prisma.loopEvent.findMany({ where: { loopId } }),
        await db().prisma.checkpoint.findMany({ where: { loopId } }),
        await db().prisma.checkpointPart.findMany({ where: { loopId } }),
        await db().prisma.loop.findMany({ where: { id: loopId } }),
      ];
      for (const text of [...responses, ...stored].map((r) => JSON.stringify(r))) expect(text).not.toContain(SECRET);
    } finally {
      await dispatcher.stop();
    }
  });
});
