// Real loops with the REAL agent CLIs (the pinned @anthropic-ai/claude-code and
// @openai/codex), run the way a user runs them (`ralph run -f loop.json`, the
// product's runtime, the default sandbox on), against our scripted model server
// (the one part that cannot be real here). The Claude Code and Codex templates,
// unchanged but for the workspace and the model endpoint, fix a two-bug project
// through the CLI's own tools (Edit / apply_patch) and complete at iteration 2
// on the tests' evidence, with the tool calls, tokens and cost recorded.
//
// Reaching the model server from inside the sandbox: the base URL names this
// machine's host name (the server listens where it resolves) and
// RALPH_AGENT_ALLOW_HOSTS lists `<hostname>:port`, `127.0.0.1:port` and that
// address (inside the sandbox 127.0.0.1 is the sandbox's own loopback).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { lookup } from "node:dns/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../cli/exit-codes";
import { ralph, spawnRalph } from "../cli-app";
import { waitFor } from "../runtime-harness";
import { openDatabase } from "../../server/db/client";
import { loopTemplates } from "../../server/loops/loop-templates";
import { startModelServer, type ModelServer, type Script } from "../model-server/model-server";
import { cliVersionOutput, judgeVersion } from "../../server/agents/cli-version";
import { claudeCodePreset } from "../../server/agents/claude-code.preset";
import { codexPreset } from "../../server/agents/codex.preset";
import { CLAUDE_VERSION, CODEX_VERSION, linkOrCopy, stagedCliDir } from "./stage-clis";
import { claudeFixer, codexFixer, createTwoBugRepo } from "./two-bug-repo";

interface Run {
  folder: string;
  server: ModelServer;
  result: { code: number | null; stdout: string; stderr: string };
  iterations: {
    number: number;
    status: string;
    meanScore: number | null;
    toolCalls: unknown;
    tokensIn: number;
    tokensOut: number;
    costUsd: number;
    codeDiff: string | null;
  }[];
  loop: { status: string; iteration: number; costUsd: number };
  workspace: string;
}

const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

let bin: string;
beforeAll(() => {
  bin = stagedCliDir();
}, 600_000);

/**
 * Where the agent reaches the model server from inside the sandbox: through the proxy by this machine's
 * name (127.0.0.1 there is the sandbox's own loopback). Listen where that name points: 127.0.0.1 here,
 * 127.0.1.1 on a stock Debian, the host's own address on some CI runners.
 */
async function hostAddress(): Promise<string> {
  return (await lookup(hostname(), { family: 4 })).address;
}

interface Setup {
  root: string;
  folder: string;
  workspace: string;
  server: ModelServer;
  env: Record<string, string>;
}

/** A two-bug project, a model server, and the template's definition (endpoint added) in a `ralph run` folder. */
async function setUp(
  templateId: string,
  script: Script,
  endpointEnv: (s: ModelServer) => Record<string, string>,
  secretEnv: Record<string, string>,
  agentPatch: Record<string, unknown> = {},
): Promise<Setup> {
  const root = mkdtempSync(join(tmpdir(), "ralph-real-cli-"));
  folders.push(root);
  // `ralph run`'s folder (its data and, headless, its app folder) and the workspace side by side.
  const folder = join(root, "run");
  mkdirSync(folder);
  const workspace = createTwoBugRepo(join(root, "ws"));
  const server = await startModelServer({ script, host: await hostAddress() });
  const template = loopTemplates().find((t) => t.id === templateId)!.definition as Record<string, unknown> & {
    agent: Record<string, unknown>;
  };
  const definition = { ...template, workspace, agent: { ...template.agent, env: endpointEnv(server), ...agentPatch } };
  writeFileSync(join(folder, "loop.json"), JSON.stringify(definition));
  const env = {
    HOME: folder,
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    RALPH_AGENT_ALLOW_HOSTS: [...new Set(["127.0.0.1", hostname(), new URL(server.url).hostname])]
      .map((h) => `${h}:${server.port}`)
      .join(","),
    RALPH_AGENT_ENV_ALLOW: Object.keys(secretEnv).join(","),
    ...secretEnv,
  };
  return { root, folder, workspace, server, env };
}

async function readRun(setup: Setup, result: Run["result"]): Promise<Run> {
  const file = join(setup.folder, "data/ralph.db");
  const db = openDatabase({ kind: "sqlite", url: `file:${file}`, file });
  try {
    const loop = await db.prisma.loop.findFirst();
    if (!loop) throw new Error(`ralph run created no loop (exit ${result.code}): ${result.stdout}${result.stderr}`);
    const iterations = await db.prisma.iteration.findMany({ where: { loopId: loop.id }, orderBy: { number: "asc" } });
    return { folder: setup.folder, server: setup.server, result, iterations, loop, workspace: setup.workspace };
  } finally {
    await db.close();
  }
}

async function runTemplate(...args: Parameters<typeof setUp>): Promise<Run> {
  const setup = await setUp(...args);
  try {
    const result = await ralph(["run", "-f", "loop.json", "--no-block", "--json"], {
      cwd: setup.folder,
      env: setup.env,
      timeoutMs: 900_000,
    });
    return await readRun(setup, result);
  } finally {
    await setup.server.close();
  }
}

function expectTwoIterationFix(run: Run, tools: { edit: string; shell: string }) {
  expect(run.result.stderr, run.result.stdout).not.toMatch(/error/i);
  // Evidence at iteration 2: the template's completion gate (approval before completion) is reached.
  expect(run.result.code, run.result.stdout + run.result.stderr).toBe(EXIT.attention);
  expect(run.loop.iteration).toBe(2);
  expect(run.iterations.map((i) => i.meanScore)).toEqual([0.5, 1]);
  // The fixes are the CLI's own edits, one per iteration, in the loop's worktree (its committed diffs).
  expect(run.iterations[0]!.codeDiff).toContain("+  return a + b; // add");
  expect(run.iterations[1]!.codeDiff).toContain("+  return a + a; // twice");
  const main = run.server.requests.filter((r) => !r.side);
  for (const it of run.iterations) {
    expect(it.status).toBe("succeeded");
    const calls = it.toolCalls as string[];
    expect(calls).toEqual(expect.arrayContaining([tools.edit, tools.shell]));
    expect(it.tokensIn).toBeGreaterThan(0);
    expect(it.tokensOut).toBeGreaterThan(0);
    expect(it.costUsd).toBeGreaterThan(0);
  }
  // Tokens: what the model server sent, all of it (the main turns and any side call).
  const sent = run.server.requests.filter((r) => r.api !== "other");
  const tokensOut = run.iterations.reduce((s, i) => s + i.tokensOut, 0);
  expect(tokensOut).toBe(sent.reduce((s, r) => s + r.usage.output, 0));
  const tokensIn = run.iterations.reduce((s, i) => s + i.tokensIn, 0);
  expect(tokensIn).toBe(sent.reduce((s, r) => s + r.usage.input, 0));
  expect(main.length).toBeGreaterThanOrEqual(8);
  expect(run.loop.costUsd).toBeCloseTo(
    run.iterations.reduce((s, i) => s + i.costUsd, 0),
    6,
  );
}

describe("real CLIs in real loops (default sandbox)", () => {
  it("Claude Code template: fixes two bugs through Read/Edit/Bash and completes at iteration 2", async () => {
    const run = await runTemplate(
      "claude-code-tests",
      claudeFixer,
      (s) => ({ ANTHROPIC_BASE_URL: `http://${hostname()}:${s.port}` }),
      { ANTHROPIC_API_KEY: "sk-ant-test-key" },
    );
    expectTwoIterationFix(run, { edit: "Edit", shell: "Bash" });
    expect(run.server.requests.every((r) => r.headers["x-api-key"] === "sk-ant-test-key" || r.api === "other")).toBe(
      true,
    );
  }, 900_000);

  it("Codex template: fixes two bugs through apply_patch/exec_command and completes at iteration 2", async () => {
    const run = await runTemplate(
      "codex-tests",
      codexFixer,
      (s) => ({ OPENAI_BASE_URL: `http://${hostname()}:${s.port}/v1` }),
      { OPENAI_API_KEY: "sk-openai-test-key" },
    );
    // Codex reports its tools as items: apply_patch as file_change, exec_command as command_execution.
    expectTwoIterationFix(run, { edit: "file_change", shell: "command_execution" });
    expect(run.server.requests.flatMap((r) => r.toolCalls)).toEqual(
      expect.arrayContaining(["apply_patch", "exec_command"]),
    );
    // -m from the loop's model: the model Codex ran is the one priced.
    // Priced from the pricing table's gpt-5 row (gpt-5.5 by longest prefix): $1.25 in, $10 out per MTok.
    for (const it of run.iterations) expect(it.costUsd).toBeCloseTo((it.tokensIn * 1.25 + it.tokensOut * 10) / 1e6, 9);
    expect(new Set(run.server.requests.filter((r) => r.api === "openai").map((r) => r.model))).toEqual(
      new Set(["gpt-5.5"]),
    );
  }, 900_000);
});

/** Processes whose command line or working folder is inside `root` (the sandbox keeps host paths). */
function processesUnder(root: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      let cwd = "";
      try {
        cwd = readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        // another user's process, or gone
      }
      if (cmd.includes(root) || cwd.startsWith(root)) found.push(`${pid} (cwd ${cwd}): ${cmd.slice(0, 200)}`);
    } catch {
      // gone since the listing
    }
  }
  return found;
}

describe("subscription sign-in and kills, with the real Claude Code", () => {
  it("a Claude subscription token (CLAUDE_CODE_OAUTH_TOKEN) signs the agent in; the loop runs as with a key", async () => {
    const run = await runTemplate(
      "claude-code-tests",
      claudeFixer,
      (s) => ({ ANTHROPIC_BASE_URL: `http://${hostname()}:${s.port}` }),
      { CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-test-token" },
      { secrets: [{ name: "CLAUDE_CODE_OAUTH_TOKEN" }] },
    );
    expectTwoIterationFix(run, { edit: "Edit", shell: "Bash" });
    const model = run.server.requests.filter((r) => r.api === "anthropic");
    expect(model.every((r) => r.headers.authorization === "Bearer sk-ant-oat01-test-token")).toBe(true);
    expect(model.every((r) => r.headers["x-api-key"] === undefined)).toBe(true);
  }, 900_000);

  it("killing a run mid-turn (SIGINT to ralph run) leaves no agent, sandbox or shell process behind", async () => {
    const slow: Script = () => ({ text: "Let me think about this carefully. ".repeat(40), streamSeconds: 300 });
    const setup = await setUp(
      "claude-code-tests",
      slow,
      (s) => ({ ANTHROPIC_BASE_URL: `http://${hostname()}:${s.port}` }),
      { ANTHROPIC_API_KEY: "sk-ant-test-key" },
    );
    try {
      const child = spawnRalph(["run", "-f", "loop.json"], setup.env, setup.folder);
      // The agent is mid-stream once the model server has its first turn.
      await waitFor(async () => setup.server.requests.some((r) => r.api === "anthropic"), Boolean, 300_000);
      expect(processesUnder(setup.root).length).toBeGreaterThan(0);
      child.kill("SIGINT");
      const code = await child.exited;
      expect(code, child.output()).toBe(EXIT.interrupted);
      await waitFor(
        async () => processesUnder(setup.root),
        (left) => left.length === 0,
        60_000,
      ).catch(() => undefined);
      expect(processesUnder(setup.root)).toEqual([]);
    } finally {
      await setup.server.close();
    }
  }, 600_000);

  it("a kill mid-turn keeps what the agent did: the killed iteration shows its tool call, tokens and cost", async () => {
    // One tool call (the CLI runs it), then a turn that streams a word and stalls until the kill.
    const script: Script = (c) =>
      c.toolResults.length === 0
        ? { toolCalls: [{ name: "Bash", input: { command: "echo kept", description: "Say kept" } }] }
        : { text: "Now I will think for a long while", stall: "hang" };
    const setup = await setUp(
      "claude-code-tests",
      script,
      (s) => ({ ANTHROPIC_BASE_URL: `http://${hostname()}:${s.port}` }),
      { ANTHROPIC_API_KEY: "sk-ant-test-key" },
      // A priced model: a killed run has no result event (Claude's own cost), so its tokens are priced.
      { model: "claude-sonnet-4-5" },
    );
    try {
      const child = spawnRalph(["run", "-f", "loop.json"], setup.env, setup.folder);
      // The second main turn is the stalled one: the tool call is done by then.
      const main = () => setup.server.requests.filter((r) => r.api === "anthropic" && !r.side);
      await waitFor(
        async () => main().length,
        (n) => n >= 2,
        120_000,
      );
      child.kill("SIGINT");
      expect(await child.exited, child.output()).toBe(EXIT.interrupted);
      const run = await readRun(setup, { code: EXIT.interrupted, stdout: "", stderr: "" });
      expect(run.iterations).toHaveLength(1);
      const [killed] = run.iterations;
      expect(killed!.status).toBe("interrupted");
      expect(killed!.toolCalls).toEqual(["Bash"]);
      expect(killed!.tokensIn).toBeGreaterThan(0);
      expect(killed!.tokensOut).toBeGreaterThan(0);
      expect(killed!.costUsd).toBeGreaterThan(0);
      expect(run.loop.costUsd).toBeCloseTo(killed!.costUsd, 9);
    } finally {
      await setup.server.close();
    }
  }, 180_000);
});

describe("the preflight with the real CLIs", () => {
  const isolation = { mode: "on" as const, hidden: [], homeRoot: join(tmpdir(), "unused"), allowHosts: [] };

  it("runs --version inside the sandbox: the staged CLIs answer in the supported range", async () => {
    const claude = await cliVersionOutput(join(bin, "claude"), process.env.PATH ?? "", isolation);
    expect(judgeVersion("claude", claudeCodePreset.versions!, claude)).toMatchObject({
      status: "ok",
      version: CLAUDE_VERSION,
    });
    const codex = await cliVersionOutput(join(bin, "codex"), process.env.PATH ?? "", isolation);
    expect(judgeVersion("codex", codexPreset.versions!, codex)).toMatchObject({ status: "ok", version: CODEX_VERSION });
  }, 120_000);

  it("a CLI under /tmp runs on the host but not in the sandbox, and `ralph run` refuses it with the reason", async () => {
    const root = mkdtempSync(join(tmpdir(), "ralph-tmp-cli-"));
    folders.push(root);
    mkdirSync(join(root, "bin"));
    linkOrCopy(join(bin, "claude"), join(root, "bin", "claude"));
    // Inside the sandbox /tmp is private: the same binary exits 127 there.
    const inside = await cliVersionOutput(join(root, "bin", "claude"), process.env.PATH ?? "", isolation);
    expect(inside.exitCode).not.toBe(0);
    const folder = join(root, "run");
    mkdirSync(folder);
    const template = loopTemplates().find((t) => t.id === "claude-code-tests")!.definition as { agent: object };
    const workspace = createTwoBugRepo(join(root, "ws"));
    writeFileSync(join(folder, "loop.json"), JSON.stringify({ ...template, workspace }));
    const result = await ralph(["run", "-f", "loop.json", "--json"], {
      cwd: folder,
      env: {
        HOME: folder,
        PATH: `${join(root, "bin")}:/usr/bin:/bin`,
        RALPH_AGENT_ENV_ALLOW: "ANTHROPIC_API_KEY",
        ANTHROPIC_API_KEY: "sk-ant-test-key",
      },
      timeoutMs: 300_000,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("Command claude:");
    expect(result.stderr).toContain("is under /tmp, and a sandboxed agent has a private /tmp");
  }, 300_000);
});
