// What an operator tried in order to read the server's secrets (issue 12),
// over real HTTP: every attempt is refused with a 400 or a 403 whose
// message names the field, and nothing is stored. What an admin may do
// (turn the sandbox off, open a private host) stays possible for admins.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createUser } from "../../test/auth-fixtures";
import { describeEachProvider } from "../../test/db-providers";
import { HttpClient, startAppHttpServer, type AppHttpServer } from "../../test/http-app-server";
import { getEnv } from "../env";
import { servicesWithoutJobs } from "../../test/trpc-http-server";

const llm = (extra: Record<string, unknown>) => ({ kind: "llm", model: "gpt-4.1-mini", ...extra });
const command = (extra: Record<string, unknown> = {}) => ({ kind: "command", argv: ["./agent.sh"], ...extra });

describeEachProvider("agent policy over HTTP", ({ db }) => {
  let server: AppHttpServer;
  let operator: HttpClient;
  let admin: HttpClient;
  let adminSecretId: string;
  let operatorSecretId: string;

  async function signedIn(role: "operator" | "admin") {
    const user = await createUser(db(), role);
    const client = new HttpClient(server.origin);
    expect((await client.call("auth.signIn", { email: user.email, password: user.password })).status).toBe(200);
    return client;
  }

  beforeAll(async () => {
    server = await startAppHttpServer(servicesWithoutJobs(db()));
    operator = await signedIn("operator");
    admin = await signedIn("admin");
    const stored = await admin.call("secrets.set", { name: "ADMIN_ONLY_KEY", value: "sk-admin-only-123456" });
    adminSecretId = (stored.data as { id: string }).id;
    const scoped = await admin.call("secrets.set", {
      name: "OPENAI_FOR_OPERATORS",
      value: "sk-operators-7890abcdef",
      scope: { roles: ["operator"], kinds: ["llm"], hosts: ["api.openai.com"] },
    });
    operatorSecretId = (scoped.data as { id: string }).id;
  });
  afterAll(() => server.close());

  const create = (client: HttpClient, agent: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    client.call("loops.create", {
      goal: "read the server's secrets",
      agent,
      loop: { completion: { allowNoEvidence: true } },
      start: false,
      ...extra,
    });

  it.each([
    [
      "envAllow with the server's configuration",
      command({ envAllow: ["DATABASE_URL", "RALPH_SECRET_KEY", "RALPH_JOB_SECRET", "RALPH_ADMIN_PASSWORD"] }),
      400,
      /agent\.envAllow\[0\]: DATABASE_URL is the server's own configuration/,
    ],
    [
      "an LLM key from RALPH_SECRET_KEY sent to a listener on loopback",
      llm({ provider: "openai-compatible", baseURL: "http://127.0.0.1:9/v1", apiKeyEnv: "RALPH_SECRET_KEY" }),
      400,
      /agent\.apiKeyEnv: RALPH_SECRET_KEY is the server's own configuration/,
    ],
    [
      "provider openai with the job secret as its key",
      llm({ provider: "openai", apiKeyEnv: "RALPH_JOB_SECRET" }),
      400,
      /agent\.apiKeyEnv: RALPH_JOB_SECRET/,
    ],
    [
      "a secret variable named after the server's configuration",
      command({ secrets: [{ name: "DATABASE_URL" }] }),
      400,
      /agent\.secrets\[0\]\.env: DATABASE_URL/,
    ],
    [
      "a webhook header named after the server's configuration",
      { kind: "webhook", url: "https://hooks.example.com/a", headers: { "Ralph-Secret-Key": "x" } },
      400,
      /agent\.headers\.Ralph-Secret-Key/,
    ],
    [
      "a server variable the admin did not list",
      llm({ provider: "openai", apiKeyEnv: "AWS_SECRET_ACCESS_KEY" }),
      403,
      /agent\.apiKeyEnv: AWS_SECRET_ACCESS_KEY is not in RALPH_AGENT_ENV_ALLOW/,
    ],
    [
      "the default provider key from the server environment",
      llm({ provider: "anthropic", model: "claude-sonnet-4-5" }),
      403,
      /agent\.apiKeyEnv: ANTHROPIC_API_KEY is not in RALPH_AGENT_ENV_ALLOW/,
    ],
    [
      "a model base URL on cloud metadata",
      llm({ provider: "openai-compatible", baseURL: "http://169.254.169.254/latest" }),
      403,
      /agent\.baseURL: 169\.254\.169\.254 is a loopback or private address/,
    ],
    [
      "a webhook that opens loopback itself",
      { kind: "webhook", url: "http://127.0.0.1:3000/api/jobs/run", allowHosts: ["127.0.0.1"] },
      403,
      /agent\.allowHosts: only an admin/,
    ],
    ["the sandbox off", command({ sandbox: "off" }), 403, /agent\.sandbox: only an admin can turn the sandbox off/],
    [
      "a private host in the agent's network allowlist",
      command({ network: { hosts: ["127.0.0.1:11434"] } }),
      403,
      /agent\.network\.hosts\[0\]: 127\.0\.0\.1/,
    ],
    // What the sandbox would refuse at run time is refused at create, for everyone (loopback-hosts.ts).
    [
      "a loopback host without its port",
      command({ network: { hosts: ["127.0.0.1"] } }),
      400,
      /agent\.network\.hosts\[0\]: 127\.0\.0\.1 is this machine: name its port/,
    ],
    [
      "a host name without a dot",
      command({ network: { hosts: ["host:8080"] } }),
      400,
      /agent\.network\.hosts\[0\]: host:8080: the sandbox takes a domain with a dot/,
    ],
  ])("refuses %s", async (_, agent, status, message) => {
    const before = await db().prisma.loop.count();
    const res = await create(operator, agent);
    expect(res.status).toBe(status);
    expect(res.error?.message).toMatch(message);
    expect(await db().prisma.loop.count()).toBe(before);
  });

  it("refuses an admin's stored secret, by id and by name, and a scoped secret used outside its scope", async () => {
    for (const ref of [adminSecretId, "ADMIN_ONLY_KEY"]) {
      const res = await create(operator, command({ secrets: [{ name: "KEY", secret: ref }] }));
      expect(res.status).toBe(403);
      expect(res.error?.message).toMatch(
        /agent\.secrets\[0\]\.secret: the stored secret "ADMIN_ONLY_KEY" is for admins only/,
      );
    }
    // Operators may use this one, for model calls to api.openai.com only.
    expect((await create(operator, llm({ provider: "openai", apiKeySecret: operatorSecretId }))).status).toBe(200);
    const elsewhere = await create(
      operator,
      llm({ provider: "openai", baseURL: "https://collector.example.net/v1", apiKeySecret: operatorSecretId }),
    );
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.error?.message).toMatch(/may only be sent to api\.openai\.com, not collector\.example\.net/);
    const inAProcess = await create(operator, command({ secrets: [{ name: "K", secret: "OPENAI_FOR_OPERATORS" }] }));
    expect(inAProcess.status).toBe(403);
    expect(inAProcess.error?.message).toMatch(/may only be used by llm adapters, not command/);
    expect((await create(operator, command({ secrets: [{ name: "K", secret: "NO_SUCH" }] }))).status).toBe(400);
  });

  it("keeps workspaces off the data and app folders, and operators inside RALPH_WORKSPACE_ROOTS", async () => {
    const dataDir = getEnv().RALPH_DATA_DIR;
    for (const workspace of [join(process.cwd(), dataDir), process.cwd(), "/"]) {
      const res = await create(admin, command(), { workspace });
      expect(res.status).toBe(400);
      expect(res.error?.message).toMatch(/workspace: must be neither inside nor around the (data|app) folder/);
    }
    const elsewhere = mkdtempSync(join(tmpdir(), "ralph-ws-"));
    const byOperator = await create(operator, command(), { workspace: elsewhere });
    expect(byOperator.status).toBe(403);
    expect(byOperator.error?.message).toMatch(/workspace: only an admin can choose/);
    expect((await create(admin, command(), { workspace: elsewhere })).status).toBe(200);
    // A folder that is missing or a file is a 400 naming the field, for admins too.
    const missing = await create(admin, command(), { workspace: join(elsewhere, "nope") });
    expect(missing.status).toBe(400);
    expect(missing.error?.message).toBe(`workspace: ${join(elsewhere, "nope")} does not exist`);
    writeFileSync(join(elsewhere, "file.txt"), "x");
    const file = await create(admin, command(), { workspace: join(elsewhere, "file.txt") });
    expect(file.status).toBe(400);
    expect(file.error?.message).toBe(`workspace: ${join(elsewhere, "file.txt")} is not a directory`);
  });

  it("lets an admin list a loopback model server for one loop; the same entry is refused for an operator", async () => {
    const agent = command({ network: { hosts: ["127.0.0.1:11434", "localhost:8000"] } });
    expect((await create(admin, agent)).status).toBe(200);
    expect((await create(operator, agent)).status).toBe(403);
  });

  it("lets an admin turn the sandbox off, and an operator cannot fork that loop", async () => {
    const created = await create(admin, command({ sandbox: "off" }));
    expect(created.status).toBe(200);
    const id = (created.data as { id: string }).id;
    const detail = await operator.call("loops.byId", { id }, "query");
    expect(detail.data).toMatchObject({ unsandboxed: ["agent"] });
    // A fork needs a checkpoint after an iteration; the policy is checked before that lookup.
    const fork = await operator.call("loops.controls.fork", { id, iteration: 0, start: false });
    expect(fork.status).toBe(403);
    expect(fork.error?.message).toMatch(/agent\.sandbox: only an admin/);
  });
});
