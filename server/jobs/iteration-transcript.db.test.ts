// The iteration's transcript, end to end on both databases: a command agent
// replaying real Claude Code output (test/fixtures/replay-transcript.mjs)
// through the claude-code preset, run by the real runtime; the stored row
// reads back through loops.iterationTranscript's service as the conversation,
// for a failed attempt too, and stays out of the iteration page.
import { join } from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { transcriptOf } from "../../lib/transcript/transcript";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, type Harness } from "../../test/runtime-harness";
import { tempRoot, testDeps } from "../agents/fixtures/harness";
import { createCommandAgent } from "../agents/command.executor";
import { commandAgentSchema } from "../agents/command.schema";
import { createLoop } from "../loops/loop-create.service";
import { getIterationPage } from "../loops/loop-detail.service";
import { iterationTranscriptOf } from "../loops/iteration-transcript.service";

const tmp = tempRoot("ralph-transcript-");
afterAll(() => tmp.cleanup());
const root = join(__dirname, "../..");

const replaying = (name: string, env: Record<string, string> = {}) => {
  const argv = [
    process.execPath,
    join(root, "test/fixtures/replay-transcript.mjs"),
    join(root, "test/fixtures/transcripts", `${name}.jsonl`),
    "0.02",
  ];
  const agent = createCommandAgent(
    commandAgentSchema.parse({ kind: "command", preset: "claude-code", argv, env, timeoutSeconds: 60 }),
    testDeps(tmp.root),
  );
  return (req: Parameters<typeof agent.run>[0]) => agent.run(req);
};

describeEachProvider("the iteration's transcript", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  const start = (agentKind: string) =>
    createLoop(
      h!.services,
      {
        goal: "fix the sum",
        agentKind,
        definition: { agent: { kind: agentKind } },
        engineConfig: { stop: { maxIterations: 1, noProgressIterations: 0 }, retry: { maxAttempts: 1 } },
        start: true,
      },
      asOperator(),
    );

  it("is stored with the iteration and read back as the conversation", async () => {
    h = createHarness(db(), { claude: replaying("claude-code-fix") });
    const { id } = await start("claude");
    await h.dispatcher.idle();
    expect(h.dispatcher.errors).toEqual([]);
    const stored = await iterationTranscriptOf(db(), id, 1);
    const t = transcriptOf(stored.lines);
    expect(t.format).toBe("claude-code");
    expect(t.entries.filter((e) => e.kind === "tool")).toHaveLength(4);
    expect(t.entries.at(-1)).toMatchObject({ kind: "result", ok: true });
    // A page of iterations stays small: the transcript is read on its own.
    const page = await getIterationPage(db(), id, { limit: 20 });
    expect(page.items[0]).not.toHaveProperty("transcript");
  }, 60_000);

  it("is kept for a failed attempt", async () => {
    h = createHarness(db(), { failing: replaying("claude-code-tool-errors", { REPLAY_EXIT: "3" }) });
    const { id } = await start("failing");
    await h.dispatcher.idle();
    const row = await db().prisma.iteration.findFirst({ where: { loopId: id }, select: { status: true } });
    expect(row?.status).not.toBe("succeeded");
    const t = transcriptOf((await iterationTranscriptOf(db(), id, 1)).lines);
    expect(t.entries.filter((e) => e.kind === "tool" && e.status === "error")).toHaveLength(4);
  }, 60_000);
});
