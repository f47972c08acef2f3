// A long streaming turn with the REAL Claude Code, at loop level: the model server spreads one
// answer over 15 s, a delta a second (a 150 s turn scaled down), with the loop's silent-agent
// alarm and stuck threshold at 3 s. While the text streams no alarm is raised, health stays
// healthy, and the live view (the store the detail page reads) shows the words as they arrive.
// The control: the same loop whose turn stalls after its first words does raise them, so the
// thresholds are live and the test can fail.
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../db-providers";
import { asOperator, waitFor } from "../runtime-harness";
import { tempRoot } from "../../server/agents/fixtures/harness";
import { createLoop } from "../../server/loops/loop-create.service";
import { requestControl } from "../../server/loops/loop-controls.service";
import { currentAlarms } from "../../server/loops/loop-alarms.service";
import { getLiveIteration } from "../../server/loops/live-iteration.service";
import { LocalDispatcher } from "../../server/jobs/local-dispatcher";
import { startModelServer, type ModelServer, type Turn } from "../model-server/model-server";
import { stagedCliDir } from "./stage-clis";
import { startDefinitionRuntime } from "../definition-runtime";

const tmp = tempRoot("ralph-real-slow-");
afterAll(() => tmp.cleanup());

beforeAll(() => {
  // The preset runs `claude` from PATH: the staged pinned binary.
  process.env.PATH = `${stagedCliDir()}:${process.env.PATH ?? ""}`;
}, 600_000);

// RALPH_SLOW_TURN_SECONDS=150 runs the unscaled turn by hand: 150 s with the loop's default alarm and
// health settings (silent after 120 s), so the silence rule is really crossed. CI runs the scaled one.
const SECONDS = Number(process.env.RALPH_SLOW_TURN_SECONDS ?? 15);
const SCALED = SECONDS < 150;
// One delta a second, each naming its place.
const words = Array.from({ length: SECONDS }, (_, i) => `w${String(i + 1).padStart(3, "0")}xx `).join("");

describeEachProvider("a long streaming turn with the real Claude Code", ({ db }) => {
  const servers: ModelServer[] = [];
  const dispatchers: LocalDispatcher[] = [];
  afterEach(async () => {
    for (const d of dispatchers.splice(0)) await d.stop();
    for (const s of servers.splice(0)) await s.close();
  });

  async function start(turn: Turn) {
    const server = await startModelServer({ script: () => turn });
    servers.push(server);
    const r = startDefinitionRuntime(db(), { root: tmp.root, instanceId: "real-slow", secret: "sk-ant-test-key" });
    dispatchers.push(r.dispatcher);
    const { id } = await createLoop(
      r.services,
      {
        goal: "think out loud",
        agentKind: "command",
        definition: {
          agent: {
            kind: "command",
            preset: "claude-code",
            env: { ANTHROPIC_BASE_URL: server.url },
            secrets: [{ name: "ANTHROPIC_API_KEY", secret: "key" }],
            timeoutSeconds: SECONDS + 120,
          },
          scorers: [{ kind: "keyword", keywords: ["DONE"] }],
        },
        engineConfig: {
          stop: { maxIterations: 1, scoreThreshold: 1, noProgressIterations: 0 },
          retry: { maxAttempts: 1, strategy: "none" },
          // Scaled: stuck after 3 s without progress, checked every second; silent after 3 s.
          ...(SCALED
            ? {
                health: { stuckAfter: 3, checkInterval: 1, nudgeInterval: 600, escalationTimeout: 600 },
                alarms: { silentAfterSeconds: 3 },
              }
            : {}),
        },
        start: true,
      },
      asOperator(),
    );
    const main = () => server.requests.filter((q) => q.api === "anthropic" && !q.side);
    return { id, main, services: r.services };
  }

  const loopRow = (id: string) => db().prisma.loop.findUniqueOrThrow({ where: { id } });
  const alarmsOf = async (id: string) =>
    ((await currentAlarms(db().prisma, [await loopRow(id)], Date.now())).get(id) ?? []).map((a) => a.kind);
  const healthEvents = (id: string) =>
    db().prisma.loopEvent.findMany({ where: { loopId: id, type: { in: ["health_changed", "intervention"] } } });

  /** Once a second while the turn streams: the alarms, the live view's health and the words it shows. */
  async function watchTurn(id: string, seconds: number) {
    const samples: { alarms: string[]; health: string | null; seen: number }[] = [];
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const live = await getLiveIteration(db(), id);
      const text = (live?.lines ?? []).join("\n");
      samples.push({
        alarms: await alarmsOf(id),
        health: live?.health ?? null,
        seen: new Set(text.match(/w\d{3}xx/g) ?? []).size,
      });
      await new Promise((r) => setTimeout(r, 1000));
    }
    return samples;
  }

  it(
    `a ${SECONDS} s turn streaming a delta a second: no silent or stuck alarm, and the words show live as they arrive`,
    async () => {
      const { id, main } = await start({ text: `${words}DONE`, streamSeconds: SECONDS, chunks: SECONDS + 1 });
      await waitFor(
        async () => main().length,
        (n) => n >= 1,
        60_000,
      );
      // Sample most of the turn (it ends ~15 s after the request).
      const samples = await watchTurn(id, SECONDS - 3);
      expect(samples.flatMap((s) => s.alarms)).toEqual([]);
      expect(samples.every((s) => s.health === null || s.health === "healthy")).toBe(true);
      // The words arrive over the turn, not all at its end: the live view grows while it streams.
      const seen = samples.map((s) => s.seen);
      expect(Math.max(...seen)).toBeGreaterThanOrEqual(5);
      expect(seen.at(-1)!).toBeLessThan(SECONDS);
      expect(seen.at(-1)!).toBeGreaterThan(seen.find((n) => n > 0)!);
      const done = await waitFor(
        () => loopRow(id),
        (l) => l.status === "completed",
        60_000,
      );
      expect(done.status).toBe("completed");
      expect(await healthEvents(id)).toEqual([]);
      const [it] = await db().prisma.iteration.findMany({ where: { loopId: id } });
      expect(it!.output).toContain(`w${String(SECONDS).padStart(3, "0")}xx`);
    },
    (SECONDS + 120) * 1000,
  );

  it("the control: a turn that stalls after its first words raises the silent or stuck alarm within seconds", async () => {
    const { id, main, services } = await start({ text: `${words}DONE`, chunks: SECONDS, stall: "hang" });
    await waitFor(
      async () => main().length,
      (n) => n >= 1,
      60_000,
    );
    const raised = await waitFor(
      async () => ({ alarms: await alarmsOf(id), health: (await getLiveIteration(db(), id))?.health ?? null }),
      (s) => s.alarms.length > 0 || s.health === "stuck",
      20_000,
    );
    expect(raised.alarms.includes("silent") || raised.health === "stuck").toBe(true);
    // The hung turn ends with a kill, not the CLI's own retries.
    await requestControl(services, id, { kind: "kill" }, asOperator("test over"));
    await waitFor(
      () => loopRow(id),
      (l) => l.status !== "running",
      30_000,
    );
  }, 120_000);
});
