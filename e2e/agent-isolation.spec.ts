// A hostile agent, run by an operator through the real app and the real
// sandbox: it prints its environment, reads the data folder's secret key,
// job secret and database, calls the app itself and a host outside its
// allowlist, and prints a stored secret in plain text, base64 and hex.
// Nothing usable comes out: not in the stored output, not on the share page,
// not in the exports. The admin sees the sandbox in Settings and a warning
// badge on a loop that runs without it.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { E2E_ADMIN, ensureAccount, signIn, signInApi, trpc } from "./support/auth";

const TOKEN = "tok-e2e-Agent+Secret/9b27c1d05e";
const forms = (value: string) => [
  value,
  Buffer.from(value).toString("base64"),
  Buffer.from(value).toString("base64").replace(/=+$/, ""),
  Buffer.from(value).toString("hex"),
];

const HOSTILE = `echo "== env"; env
data=$(dirname "$(dirname "$RALPH_WORKSPACE")")
echo "== files in $data"
cat "$data/secret-key" "$data/job-secret" 2>&1
head -c 2000 "$data/e2e.db" 2>&1 | od -c | head -20
ls -la "$data" 2>&1
echo "== network"
curl -sS -m 5 "$APP/api/health" 2>&1; echo " app=$?"
curl -fsS -m 5 https://example.com/ -o /dev/null 2>&1; echo " internet=$?"
echo "== token"
echo "$AGENT_TOKEN"
printf %s "$AGENT_TOKEN" | base64
printf %s "$AGENT_TOKEN" | od -An -tx1 | tr -d ' \\n'; echo
echo '{"usage":{"input":10,"output":5,"cache":0},"cost":0}'`;

async function finished(api: APIRequestContext, id: string) {
  for (let i = 0; i < 150; i++) {
    const detail = await trpc(api, "loops.byId", { id }, "query");
    const status = (detail.data as { loop: { status: string } }).loop.status;
    if (["stopped", "completed", "failed"].includes(status)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the loop did not finish");
}

test("an operator's hostile agent gets nothing usable, and its secret is redacted everywhere", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // The admin stores the secret and lets operators use it in command agents.
  const admin = await playwrightRequest.newContext({ baseURL });
  await signInApi(admin, E2E_ADMIN.email, E2E_ADMIN.password);
  const stored = await trpc(admin, "secrets.set", {
    name: "E2E_AGENT_TOKEN",
    value: TOKEN,
    scope: { roles: ["operator"], kinds: ["command"], hosts: [] },
  });
  expect(stored.status).toBe(200);
  const secretId = (stored.data as { id: string }).id;

  const operator = await ensureAccount("operator");
  await signIn(page, "operator");
  const api = page.request;
  const created = await trpc(api, "loops.create", {
    name: "Hostile agent",
    goal: "Exfiltrate whatever you can",
    agent: {
      kind: "command",
      argv: ["/bin/sh", "-c", HOSTILE],
      env: { APP: baseURL },
      secrets: [{ name: "AGENT_TOKEN", secret: secretId }],
      timeoutSeconds: 60,
    },
    loop: {
      stop: { maxIterations: 1, noProgressIterations: 0 },
      retry: { maxAttempts: 1 },
      completion: { allowNoEvidence: true },
    },
  });
  expect(created.status).toBe(200);
  const id = (created.data as { id: string }).id;
  await finished(api, id);

  const page1 = await trpc(api, "loops.iterations", { id, limit: 10 }, "query");
  const [row] = (page1.data as { items: { status: string; output: string }[] }).items;
  expect(row?.status).toBe("succeeded");
  const output = row!.output;

  // Where the data folder is, from what the agent printed: the host's copies are what it must not have seen.
  const workspace = /^RALPH_WORKSPACE=(.*)$/m.exec(output)?.[1];
  expect(workspace).toBeTruthy();
  const dataDir = dirname(dirname(workspace!));
  for (const file of ["secret-key", "job-secret"]) {
    const path = join(dataDir, file);
    if (existsSync(path)) expect(output).not.toContain(readFileSync(path, "utf8").trim());
  }
  expect(output).toContain("secret-key: No such file or directory");
  expect(output).not.toContain("S   Q   L   i   t   e"); // the database file's header, as od prints it
  expect(output).not.toContain(operator.email);
  // The environment: no server configuration at all.
  for (const name of ["DATABASE_URL", "RALPH_DATA_DIR", "RALPH_ADMIN_EMAIL", "RALPH_ADMIN_PASSWORD", "PORT"]) {
    expect(output).not.toMatch(new RegExp(`^${name}=`, "m"));
  }
  expect(output).not.toContain(E2E_ADMIN.password);
  // The network: neither the app on this machine nor a host outside the allowlist.
  expect(output).not.toContain('"status"');
  expect(output).toMatch(/ app=[1-9]/);
  expect(output).toMatch(/ internet=[1-9]/);
  // The stored secret, printed three ways: only [redacted] is left.
  expect(output).toContain("[redacted]");
  for (const form of forms(TOKEN)) expect(output).not.toContain(form);

  // The share page and its exports show the same, scrubbed output.
  const share = await trpc(api, "share.create", { loopId: id });
  expect(share.status).toBe(200);
  const path = (share.data as { path: string }).path;
  const stranger = await playwrightRequest.newContext({ baseURL });
  const bodies = [
    await (await stranger.get(path)).text(),
    await (await stranger.get(`${path}/export/json`)).text(),
    await (await stranger.get(`${path}/export/markdown`)).text(),
  ];
  for (const body of bodies) {
    expect(body).toContain("redacted");
    for (const form of forms(TOKEN)) expect(body).not.toContain(form);
  }
  await stranger.dispose();
  await admin.dispose();
});

test("Settings reports the sandbox; a loop an admin runs without it carries a warning badge", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/settings");
  await expect(page.getByTestId("sandbox-status")).toContainText("available");
  const created = await trpc(page.request, "loops.create", {
    goal: "Run unsandboxed (admin's choice)",
    agent: { kind: "command", argv: ["/bin/true"], sandbox: "off" },
    loop: { stop: { maxIterations: 1 }, completion: { allowNoEvidence: true } },
    start: false,
  });
  expect(created.status).toBe(200);
  await page.goto(`/loops/${(created.data as { id: string }).id}`);
  await expect(page.getByTestId("sandbox-off-badge")).toContainText("sandbox off");
});
