// Permission prompts with the REAL Claude Code (the pinned CLI, in the real sandbox), scripted by the
// model server to run one Bash command the loop's policy watches. The CLI asks its permission tool
// (--permission-prompt-tool, our per-attempt MCP server); the prompt is stored and shown through the
// router the loop page reads; then: (a) an operator approves → the command ran (its file exists) and
// the audit says who approved; (b) an operator denies → the command did not run and the agent read
// the denial as the tool's result; (c) nobody answers → the deadline's default applies, audited.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../db-providers";
import { asOperator, waitFor } from "../runtime-harness";
import { tempRoot } from "../../server/agents/fixtures/harness";
import { hiddenPaths } from "../../server/agents/sandbox/isolation";
import { createLoop } from "../../server/loops/loop-create.service";
import { answerPermission, listPermissionPrompts } from "../../server/loops/permission-prompts.service";
import type { LocalDispatcher } from "../../server/jobs/local-dispatcher";
import { startModelServer, type ModelServer } from "../model-server/model-server";
import { stagedCliDir } from "./stage-clis";
import { startDefinitionRuntime } from "../definition-runtime";

const tmp = tempRoot("ralph-real-perm-");
afterAll(() => tmp.cleanup());

beforeAll(() => {
  process.env.PATH = `${stagedCliDir()}:${process.env.PATH ?? ""}`;
}, 600_000);

const COMMAND = "echo ran > side-effect.txt";

describeEachProvider("permission prompts with the real Claude Code", ({ db }) => {
  const servers: ModelServer[] = [];
  const dispatchers: LocalDispatcher[] = [];
  afterEach(async () => {
    for (const d of dispatchers.splice(0)) await d.stop();
    for (const s of servers.splice(0)) await s.close();
  });

  async function start(policy: Record<string, unknown>) {
    // Turn 1: the Bash call; turn 2: what the tool said, then DONE.
    const server = await startModelServer({
      script: (c) =>
        c.toolResults.length === 0
          ? { toolCalls: [{ name: "Bash", input: { command: COMMAND, description: "write the file" } }] }
          : {
              text: `tool said: ${c.toolResults.map((r) => `${r.isError ? "ERROR " : ""}${r.output}`).join(" | ")} DONE`,
            },
    });
    servers.push(server);
    const r = startDefinitionRuntime(db(), {
      root: tmp.root,
      instanceId: "real-perm",
      secret: "sk-ant-test-key",
      // The real sandbox: the agent reaches the model server and its permission server through loopback forwards.
      isolation: {
        mode: "on",
        hidden: hiddenPaths(join(tmp.root, "data"), process.cwd()),
        homeRoot: join(tmp.root, "homes"),
        allowHosts: [`127.0.0.1:${server.port}`],
        warm: "off",
      },
    });
    dispatchers.push(r.dispatcher);
    const { id } = await createLoop(
      r.services,
      {
        goal: "write the file",
        agentKind: "command",
        definition: {
          agent: {
            kind: "command",
            preset: "claude-code",
            env: { ANTHROPIC_BASE_URL: server.url },
            secrets: [{ name: "ANTHROPIC_API_KEY", secret: "key" }],
            timeoutSeconds: 180,
            permissions: { commandPatterns: ["side-effect\\.txt"], risk: "high", ...policy },
          },
          scorers: [{ kind: "keyword", keywords: ["DONE"] }],
        },
        engineConfig: {
          stop: { maxIterations: 1, scoreThreshold: 1, noProgressIterations: 0 },
          retry: { maxAttempts: 1, strategy: "none" },
        },
        start: true,
      },
      asOperator(),
    );
    const pending = () =>
      waitFor(
        () => listPermissionPrompts(r.services, id),
        (rows) => rows.some((p) => p.status === "pending"),
        120_000,
      ).then((rows) => rows.find((p) => p.status === "pending")!);
    const finished = () =>
      waitFor(
        () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
        (l) => l.status !== "running" && l.status !== "queued",
        120_000,
      );
    const workspace = join(tmp.root, id);
    const events = () =>
      db().prisma.loopEvent.findMany({
        where: { loopId: id, type: { in: ["permission_requested", "permission_decided"] } },
        orderBy: { id: "asc" },
      });
    const lastAnswer = () => {
      const main = server.requests.filter((q) => q.api === "anthropic" && !q.side);
      return main.at(-1);
    };
    return { id, services: r.services, pending, finished, workspace, events, server, lastAnswer };
  }

  it("approve: the command runs, and the audit names the operator", async () => {
    const t = await start({ deadlineSeconds: 120, defaultAction: "deny" });
    const prompt = await t.pending();
    expect(prompt).toMatchObject({ toolName: "Bash", summary: COMMAND, risk: "high", defaultAction: "deny" });
    expect(existsSync(join(t.workspace, "side-effect.txt"))).toBe(false);
    await answerPermission(t.services, prompt.id, { decision: "allow" }, asOperator("looks fine"));
    await t.finished();
    expect(readFileSync(join(t.workspace, "side-effect.txt"), "utf8")).toBe("ran\n");
    const decided = (await t.events()).filter((e) => e.type === "permission_decided");
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({ actor: "local", reason: "looks fine" });
    expect(decided[0]!.payload).toMatchObject({ decision: "allowed", byDefault: false, toolName: "Bash" });
  }, 300_000);

  it("deny: the command does not run, and the agent reads the denial", async () => {
    const t = await start({ deadlineSeconds: 120, defaultAction: "allow" });
    const prompt = await t.pending();
    await answerPermission(t.services, prompt.id, { decision: "deny", message: "not on my watch" }, asOperator());
    await t.finished();
    expect(existsSync(join(t.workspace, "side-effect.txt"))).toBe(false);
    const [iteration] = await db().prisma.iteration.findMany({ where: { loopId: t.id } });
    expect(iteration!.output).toContain("ERROR Permission denied by local: not on my watch");
    const decided = (await t.events()).filter((e) => e.type === "permission_decided");
    expect(decided.map((e) => e.payload)).toMatchObject([{ decision: "denied", byDefault: false }]);
  }, 300_000);

  it("nobody answers: the deadline's default (allow here) applies, audited as the deadline's", async () => {
    const t = await start({ deadlineSeconds: 5, defaultAction: "allow" });
    const prompt = await t.pending();
    await t.finished();
    expect(readFileSync(join(t.workspace, "side-effect.txt"), "utf8")).toBe("ran\n");
    const decided = (await t.events()).filter((e) => e.type === "permission_decided");
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({ actor: "deadline" });
    expect(decided[0]!.payload).toMatchObject({ decision: "allowed", byDefault: true });
    // A late answer is refused, saying the deadline passed.
    await expect(answerPermission(t.services, prompt.id, { decision: "deny" }, asOperator())).rejects.toThrow(
      /Too late: the deadline passed/,
    );
  }, 300_000);
});
