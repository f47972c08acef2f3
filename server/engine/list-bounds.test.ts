// The lists a snapshot carries stay within their bounds however long a loop
// runs, and what reads them (the no-progress detector, the handoff, the
// verifier and reflector, a restore) decides as it would with the whole list.
import { describe, expect, it } from "vitest";
import { FakeClock, result } from "../../test/engine-fakes";
import { buildCheckpoint, restoreFromCheckpoint } from "./checkpoint";
import { HISTORY_CAP, VERIFICATION_HISTORY, WORK_ITEMS_KEPT, WORK_TRIM_STEP } from "./list-bounds";
import type { AgentRunRequest, EnginePorts } from "./ports";
import { runLoop, step } from "./runner";
import { createLoop, type LoopSnapshot } from "./snapshot";
import { RECENT_RECORDS } from "./budget";

const ITERATIONS = 10_000;

// Every iteration reports something new on every accumulated list, is scored, verified and reflected on.
const everything = (extra: (req: AgentRunRequest) => Record<string, unknown> = () => ({})): EnginePorts => ({
  agent: {
    run: async (req) =>
      result({
        output: `iteration ${req.iteration}`,
        progress: {
          completedItems: [`done ${req.iteration}`],
          decisions: [`decision ${req.iteration}`],
          assumptions: [`assumption ${req.iteration}`],
          constraints: [`constraint ${req.iteration}`],
          ...extra(req),
        },
      }),
  },
  scorers: [{ name: "q", score: ({ iteration }) => ({ score: (iteration % 7) / 10 }) }],
  verifier: { verify: async (req) => ({ complete: false, reason: `not yet (${req.iteration})` }) },
  reflector: {
    reflect: async (ctx) => ({
      summary: `r${ctx.iteration}`,
      keyFindings: [],
      rootCauses: [],
      insights: [],
      suggestions: [],
    }),
  },
});

const endless = (extra: Record<string, unknown> = {}) => ({
  stop: { maxIterations: ITERATIONS, noProgressIterations: 0, maxConsecutiveFailures: 0, iterationTimeout: 0 },
  health: { checkInterval: 0 },
  completion: { allowNoEvidence: true },
  ...extra,
});

function lengths(s: LoopSnapshot) {
  return {
    reflections: s.state.reflectionHistory.length,
    scores: s.state.scoreHistory.length,
    verifications: s.verifications.length,
    recent: s.ledger.recent.length,
    completed: s.work.completed.length,
    decisions: s.work.decisions.length,
    assumptions: s.work.assumptions.length,
    constraints: s.work.constraints.length,
  };
}

describe("list bounds over 10,000 iterations", () => {
  /** Every bound: `history` for reflections and scores, `verifications` its own; the rest fixed. */
  const expected = (history: number, verifications: number): ReturnType<typeof lengths> => ({
    reflections: history,
    scores: history,
    verifications,
    recent: RECENT_RECORDS,
    completed: WORK_ITEMS_KEPT,
    decisions: WORK_ITEMS_KEPT,
    assumptions: WORK_ITEMS_KEPT,
    constraints: WORK_ITEMS_KEPT,
  });
  const cases: [string, Record<string, unknown>, ReturnType<typeof lengths>][] = [
    ["default maxHistory (50)", {}, expected(50, VERIFICATION_HISTORY)],
    [
      "maxHistory 1,000,000 (capped)",
      { reflection: { maxHistory: 1_000_000 } },
      expected(HISTORY_CAP, VERIFICATION_HISTORY),
    ],
    ["maxHistory 3", { reflection: { maxHistory: 3 } }, expected(3, 3)],
  ];
  it.each(cases)(
    "%s: no list passes its bound, and the checkpoint stops growing",
    async (_name, config, bound) => {
      const clock = new FakeClock();
      const most = Object.fromEntries(Object.keys(bound).map((k) => [k, 0])) as ReturnType<typeof lengths>;
      const sizes = new Map<number, number>();
      const out = await runLoop({
        goal: "g",
        config: endless(config),
        ports: everything(),
        deps: clock,
        onStep: (outcome) => {
          for (const [k, n] of Object.entries(lengths(outcome.snapshot)) as [keyof typeof most, number][])
            most[k] = Math.max(most[k], n);
          const n = outcome.snapshot.state.iteration;
          if (outcome.iteration && (n === 2_000 || n === ITERATIONS))
            sizes.set(n, JSON.stringify(outcome.iteration.checkpoint).length);
        },
      });
      expect(out.snapshot.state.iteration).toBe(ITERATIONS);
      expect(most).toEqual(bound);
      // The completed list keeps the latest items; progress still counted every one of them.
      expect(out.snapshot.work.completed.at(-1)).toBe(`done ${ITERATIONS}`);
      expect(out.snapshot.progress.completedCount).toBe(ITERATIONS);
      // Same lists, same lengths: only the digits of the numbers in them grow.
      expect(Math.abs(sizes.get(ITERATIONS)! - sizes.get(2_000)!)).toBeLessThan(sizes.get(2_000)! * 0.05);
    },
    120_000,
  );
});

describe("what reads the lists decides as with the whole list", () => {
  const stopsAfter = WORK_ITEMS_KEPT * 3; // well past the kept window

  const reporters: [string, (n: number) => string[]][] = [
    ["one new item an iteration", (n) => [`item ${n}`]],
    // Re-reporting the last 20 items (kept) with one new one: only the new one is progress.
    ["the last 20 again plus a new one", (n) => Array.from({ length: 21 }, (_, i) => `item ${n - 20 + i}`)],
    ["an early item again every iteration, with a new one", (n) => [`item ${n}`, `item ${n % 5}`]],
    // A cumulative list, every item so far each time, far longer than the kept window: once it stops
    // growing it is the same set again, not hundreds of "new" items that fell out of the window.
    ["the whole list so far, every iteration", (n) => Array.from({ length: n }, (_, i) => `item ${i + 1}`)],
  ];
  // With a threshold of 1, an iteration whose new item is not seen as progress (say, when the list is
  // trimmed) stops the loop there: it must stop right after the last new item and nowhere before.
  it.each(reporters.flatMap(([name, items]) => [1, 3].map((after) => [name, after, items] as const)))(
    "no_progress stops after the last new item, past the kept window (%s; threshold %i)",
    async (_name, after, items) => {
      const clock = new FakeClock();
      const out = await runLoop({
        goal: "g",
        config: endless({ stop: { ...endless().stop, noProgressIterations: after }, reflection: { enabled: false } }),
        ports: {
          agent: {
            run: async (req) => result({ progress: { completedItems: items(Math.min(req.iteration, stopsAfter)) } }),
          },
        },
        deps: clock,
      });
      expect(out.snapshot.halt?.stopType).toBe("no_progress");
      expect(out.snapshot.state.iteration).toBe(stopsAfter + after);
      expect(out.snapshot.work.completed.length).toBeLessThanOrEqual(WORK_ITEMS_KEPT);
    },
    60_000,
  );

  it("a handoff late in a long loop triggers alike and hands on the latest items, bounded", async () => {
    const clock = new FakeClock();
    const late = 2_000;
    const out = await runLoop({
      goal: "g",
      config: endless({ stop: { ...endless().stop, maxIterations: late }, reflection: { enabled: false } }),
      ports: everything((req) => ({ requestHandoff: req.iteration === late })),
      deps: clock,
    });
    expect(out.snapshot.plan.handoffTrigger).toBe("explicit_request");
    const prompt = out.snapshot.plan.continuation!;
    expect(prompt).toContain(`- done ${late}\n`);
    expect(prompt).toContain(`- decision ${late}\n`);
    expect(prompt).not.toContain("- done 1\n");
    expect(prompt.split("\n").filter((l) => l.startsWith("- done "))).toHaveLength(out.snapshot.work.completed.length);
    expect(out.snapshot.work.completed.length).toBeGreaterThan(WORK_ITEMS_KEPT - WORK_TRIM_STEP);
  }, 60_000);
});

describe("a checkpoint written before the bounds", () => {
  /** A snapshot as an older release stored it after 5,000 iterations: every list whole. */
  function oldSnapshot(clock: FakeClock): LoopSnapshot {
    const fresh = createLoop("g", endless({ stop: { ...endless().stop, noProgressIterations: 3 } }), clock);
    const n = 5_000;
    const range = (k: number) => Array.from({ length: k }, (_, i) => i + 1);
    return {
      ...fresh,
      state: {
        ...fresh.state,
        iteration: n,
        scoreHistory: range(n).map((i) => ({ q: i / n })),
        reflectionHistory: range(800).map((i) => ({
          iteration: i,
          summary: `r${i}`,
          keyFindings: [],
          rootCauses: [],
          insights: [],
          suggestions: [],
        })),
        maxHistory: 800, // above the cap
      },
      config: { ...fresh.config, reflection: { ...fresh.config.reflection, maxHistory: 800 } },
      verifications: range(40).map((i) => ({ iteration: i, answer: "a", complete: false, reason: "no" })),
      work: {
        ...fresh.work,
        completed: range(n).map((i) => `item ${i}`),
        decisions: range(n).map((i) => `decision ${i}`),
      },
      progress: { iterationsWithoutProgress: 0, bestMeanScore: 1, completedCount: n },
    };
  }

  it("restores with its lists trimmed, keeping the latest items and the progress total", () => {
    const clock = new FakeClock();
    const old = oldSnapshot(clock);
    const checkpoint = JSON.parse(JSON.stringify(buildCheckpoint(old, clock)));
    const restored = restoreFromCheckpoint(checkpoint, { sha256: clock.sha256, expectedHash: checkpoint.hash });
    expect(lengths(restored)).toEqual({
      reflections: HISTORY_CAP,
      scores: HISTORY_CAP,
      verifications: VERIFICATION_HISTORY,
      recent: 0,
      completed: expect.any(Number),
      decisions: expect.any(Number),
      assumptions: 0,
      constraints: 0,
    });
    expect(restored.work.completed.length).toBeLessThanOrEqual(WORK_ITEMS_KEPT);
    expect(restored.work.completed.length).toBeGreaterThan(WORK_ITEMS_KEPT - WORK_TRIM_STEP);
    expect(restored.work.completed.at(-1)).toBe("item 5000");
    expect(restored.state.reflectionHistory.at(-1)?.iteration).toBe(800);
    expect(restored.progress.completedCount).toBe(5_000);
    // Within bound, a restore returns the lists as stored.
    const again = restoreFromCheckpoint(JSON.parse(JSON.stringify(buildCheckpoint(restored, clock))), {
      sha256: clock.sha256,
    });
    expect(again.work).toEqual(restored.work);
    expect(again.state).toEqual(restored.state);
  });

  it("continues: an item it still holds is no progress, a new one is, and no_progress stops on time", async () => {
    const clock = new FakeClock();
    const checkpoint = JSON.parse(JSON.stringify(buildCheckpoint(oldSnapshot(clock), clock)));
    let snapshot = restoreFromCheckpoint(checkpoint, { sha256: clock.sha256 });
    const reports = [["item 5000"], ["item 5001"], [], [], []];
    const agent = { run: async () => result({ progress: { completedItems: reports.shift() } }) };
    const without: number[] = [];
    while (snapshot.halt === null) {
      snapshot = (await step(snapshot, { agent }, clock)).snapshot;
      without.push(snapshot.progress.iterationsWithoutProgress);
    }
    expect(without).toEqual([1, 0, 1, 2, 3]);
    expect(snapshot.halt?.stopType).toBe("no_progress");
    expect(snapshot.progress.completedCount).toBe(5_001);
  });
});
