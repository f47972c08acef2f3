/**
 * The sandbox for real (bubblewrap through the sandbox runtime): a hostile
 * agent prints its environment, reads the data folder's key, database and
 * job secret, another loop's workspace and the app folder, writes outside
 * its workspace and calls hosts outside its allowlist. It gets nothing
 * usable; its workspace, HOME and /tmp work.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCommandAgent } from "../command.executor";
import { createCommandVerifier } from "../command.verifier";
import { verifierConfigSchema, type CommandVerifierConfig } from "../verifier.schema";
import { commandAgentSchema } from "../command.schema";
import { request, tempRoot, testDeps } from "../fixtures/harness";
import { hiddenPaths, type IsolationSettings } from "./isolation";

// The server's own configuration, as this process has it: none of it may reach the agent.
const SERVER_SECRETS = {
  DATABASE_URL: "postgresql://ralph:db-password-7Hq2@127.0.0.1/ralph",
  RALPH_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
  RALPH_JOB_SECRET: "job-secret-value-0123456789abcdefghijklmnop",
  RALPH_ADMIN_PASSWORD: "admin-password-Zx81",
  RALPH_ADMIN_EMAIL: "root@ralph.test",
};
for (const [name, value] of Object.entries(SERVER_SECRETS)) vi.stubEnv(name, value);

const FILE_SECRETS = {
  key: "SECRET-KEY-FILE-CONTENT-41f7",
  db: "SQLITE-DATABASE-ROW-8c2e",
  job: "JOB-SECRET-FILE-CONTENT-93aa",
  other: "OTHER-LOOP-PRIVATE-55d1",
  host: "HOST-SERVICE-ANSWER-c0de",
};

const tmp = tempRoot("ralph-sandbox-");
const data = join(tmp.root, "data");
let hostServer: Server;
let hostPort = 0;

beforeAll(async () => {
  mkdirSync(join(data, "workspaces", "other-loop"), { recursive: true });
  writeFileSync(join(data, "secret-key"), FILE_SECRETS.key);
  writeFileSync(join(data, "ralph.db"), `SQLite format 3\0${FILE_SECRETS.db}`);
  writeFileSync(join(data, "job-secret"), FILE_SECRETS.job);
  writeFileSync(join(data, "workspaces", "other-loop", "notes.txt"), FILE_SECRETS.other);
  hostServer = createServer((_, res) => res.end(FILE_SECRETS.host));
  await new Promise<void>((r) => hostServer.listen(0, "127.0.0.1", r));
  hostPort = (hostServer.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => hostServer.close(() => r()));
  tmp.cleanup();
});

const isolationFor = (extra: Partial<IsolationSettings> = {}): IsolationSettings => ({
  mode: "on",
  hidden: hiddenPaths(data, process.cwd()),
  homeRoot: join(data, "agent-homes"),
  allowHosts: [],
  ...extra,
});

const workspaceIn = (loopId: string) => join(data, "workspaces", loopId);

async function runScriptIn(
  loopId: string,
  script: string,
  config: Record<string, unknown> = {},
  iso: IsolationSettings = isolationFor(),
) {
  mkdirSync(workspaceIn(loopId), { recursive: true });
  writeFileSync(join(workspaceIn(loopId), "probe.sh"), script);
  const agent = createCommandAgent(
    commandAgentSchema.parse({ kind: "command", argv: ["/bin/sh", "./probe.sh"], timeoutSeconds: 60, ...config }),
    testDeps(tmp.root, {}, { workspaceDir: workspaceIn, isolation: iso }),
  );
  return agent.run(request({ loopId }));
}

const hostReaches = (url: string) => {
  try {
    execFileSync("curl", ["-sS", "-m", "5", "-o", "/dev/null", url]);
    return true;
  } catch {
    return false;
  }
};

// Every guarantee holds the same whether each process starts a sandbox or enters a warm one.
describe.each(["on", "off"] as const)("the agent sandbox (warm sandboxes %s)", (warm) => {
  const isolation = (extra: Partial<IsolationSettings> = {}) => isolationFor({ warm, ...extra });
  const runScript = (
    loopId: string,
    script: string,
    config: Record<string, unknown> = {},
    iso: IsolationSettings = isolation(),
  ) => runScriptIn(`${loopId}-${warm}`, script, config, iso);
  const workspaceOf = (loopId: string) => workspaceIn(`${loopId}-${warm}`);

  it("hides the server's configuration, data folder, other loops and app folder", async () => {
    const app = process.cwd();
    const result = await runScript(
      "snoop",
      `echo "== env"; env
echo "== files"
cat "${data}/secret-key" "${data}/ralph.db" "${data}/job-secret" "${data}/workspaces/other-loop/notes.txt"
ls -A "${data}" "${app}"; cat "${app}/package.json" "${app}/.env" 2>&1 | head -3
echo "== writes"
echo x > /etc/ralph-probe && echo WROTE-ETC
echo x > "${app}/ralph-probe" && echo WROTE-APP
echo x > "${data}/ralph-probe" && echo WROTE-DATA
echo "== own"
echo ok > ./mine.txt && echo WS-OK
echo ok > "$HOME/h.txt" && echo HOME-OK
echo ok > /tmp/t.txt && echo TMP-OK
mktemp >/dev/null && echo MKTEMP-OK
echo "home=$HOME"
exit 0
`,
    );
    const out = result.output + JSON.stringify(result.meta);
    for (const value of [...Object.values(SERVER_SECRETS), ...Object.values(FILE_SECRETS)]) {
      expect(out).not.toContain(value);
    }
    // The only RALPH_* variables are the run's own (loop, iteration, workspace), never the server's.
    const names = [...result.output.matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    expect(names.filter((n) => n.startsWith("RALPH_")).sort()).toEqual([
      "RALPH_AGENT_ID",
      "RALPH_ATTEMPT",
      "RALPH_ITERATION",
      "RALPH_LOOP_ID",
      "RALPH_PROMPT_FILE",
      "RALPH_WORKSPACE",
    ]);
    expect(names).not.toContain("DATABASE_URL");
    expect(out).not.toContain('"name"'); // package.json of the app
    // The rest of the system is read-only; the hidden folders are empty scratch space that vanishes with the run.
    expect(result.output).not.toContain("WROTE-ETC");
    expect(existsSync("/etc/ralph-probe")).toBe(false);
    expect(existsSync(join(app, "ralph-probe"))).toBe(false);
    expect(existsSync(join(data, "ralph-probe"))).toBe(false);

    for (const marker of ["WS-OK", "HOME-OK", "TMP-OK", "MKTEMP-OK"]) expect(result.output).toContain(marker);
    expect(readFileSync(join(workspaceOf("snoop"), "mine.txt"), "utf8")).toBe("ok\n");
    // HOME is the loop's own folder (kept across iterations); /tmp is private to the run.
    expect(result.output).toContain(`home=${join(data, "agent-homes", `snoop-${warm}`)}`);
    expect(existsSync(join(data, "agent-homes", `snoop-${warm}`, "h.txt"))).toBe(true);
    expect(existsSync("/tmp/t.txt")).toBe(false);
  });

  it("lets the agent reach only its allowlist: not this machine, not the internet at large", async () => {
    const result = await runScript(
      "net",
      `curl -sS -m 5 http://127.0.0.1:${hostPort}/ 2>&1; echo " direct=$?"
curl -fsS -m 5 --noproxy "" -x "$HTTP_PROXY" http://127.0.0.1:${hostPort}/ 2>&1; echo " viaproxy=$?"
curl -fsS -m 5 http://example.com/ -o /dev/null 2>&1; echo " example=$?"
curl -fsS -m 5 http://169.254.169.254/latest/meta-data/ 2>&1; echo " metadata=$?"
curl -sS -m 10 -o /dev/null -w "registry=%{http_code}\\n" https://registry.npmjs.org/ 2>&1
exit 0
`,
      { network: { registries: ["npm"] } },
    );
    expect(result.output).not.toContain(FILE_SECRETS.host);
    expect(result.output).toMatch(/direct=[1-9]/);
    expect(result.output).toMatch(/viaproxy=[1-9]/);
    expect(result.output).toMatch(/example=[1-9]/);
    expect(result.output).toMatch(/metadata=[1-9]/);
    // A listed registry works, when this machine can reach it at all.
    if (hostReaches("https://registry.npmjs.org/")) expect(result.output).toContain("registry=200");
  });

  it("an admin-listed host is reachable through the sandbox's proxy", async () => {
    const result = await runScript(
      "admin-host",
      `curl -sS -m 5 --noproxy "" -x "$HTTP_PROXY" http://127.0.0.1:${hostPort}/; echo " rc=$?"`,
      {},
      isolation({ allowHosts: [`127.0.0.1:${hostPort}`] }),
    );
    expect(result.output).toContain(FILE_SECRETS.host);
  });

  it("a verifier runs sandboxed too, and what it prints is scrubbed of the loop's secrets", async () => {
    const deps = testDeps(
      tmp.root,
      { "secret:tok": "agent-token-3141592653" },
      { workspaceDir: workspaceOf, isolation: isolation() },
    );
    mkdirSync(workspaceOf("verify"), { recursive: true });
    const verifier = createCommandVerifier(
      verifierConfigSchema.parse({
        kind: "command",
        argv: ["/bin/sh", "-c", `cat "${data}/secret-key"; echo " token=$T"; exit 0`],
        secrets: [{ name: "T", secret: "tok" }],
      }) as CommandVerifierConfig,
      deps,
      "verify",
    );
    const verdict = await verifier.verify({
      task: "t",
      answer: "a",
      iteration: 1,
      previousResults: [],
      signal: new AbortController().signal,
    });
    expect(verdict.complete).toBe(true);
    expect(verdict.reason).not.toContain(FILE_SECRETS.key);
    expect(verdict.reason).toContain("token=[redacted]");
  });

  it("runs a process without the sandbox only when it is off (and still never with the server's variables)", async () => {
    const off = await runScript("off", `cat "${data}/secret-key"; echo; echo "RALPH_JOB_SECRET=$RALPH_JOB_SECRET"`, {
      sandbox: "off",
    });
    // Off: the data folder is readable (that is what an admin accepts), yet the server's variables still never pass.
    expect(off.output).toContain(FILE_SECRETS.key);
    expect(off.output).not.toContain(SERVER_SECRETS.RALPH_JOB_SECRET);
  });
});
