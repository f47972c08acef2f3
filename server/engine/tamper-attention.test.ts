// Repeated tampering and needs_attention, table-driven through runLoop with a scripted agent and a fake
// graded check: each row says, per iteration, the server's count of iterations caught tampering (null:
// this one was clean), and what the loop must do.
import { describe, expect, it } from "vitest";
import { CollectingSink, FakeClock, FakeControls, ScriptedAgent } from "../../test/engine-fakes";
import type { ScorerPort, TestEvidence } from "./ports";
import { runLoop, type StepOutcome } from "./runner";

const graded = (tamperedIterations: number | null): TestEvidence => ({
  ...{ passed: 1, failed: 1, skipped: 0, errored: 0, failures: [], moreFailures: 0, format: "json" },
  ...{ runner: "vitest", counted: true, exitCode: 1, warnings: [] },
  grading: {
    sha: "abc",
    lines: [{ ok: false, text: "0 of 1 targets pass" }],
    tampering: tamperedIterations === null ? [] : [{ what: "test/math.test.js", how: "changed" }],
    notGraded: [],
    mode: "per-test",
    ...(tamperedIterations === null ? {} : { tamperedIterations }),
  },
});

/** A check that reports `counts[i]` on iteration i+1 (the last repeats). */
const check = (counts: (number | null)[]): ScorerPort => ({
  name: "tests",
  score: (ctx) => ({ score: 0, tests: graded(counts[Math.min(ctx.iteration, counts.length) - 1]!) }),
});

async function run(counts: (number | null)[], maxIterations: number, resumes: number) {
  const clock = new FakeClock();
  const agent = new ScriptedAgent([{ output: "changed things" }], clock);
  const sink = new CollectingSink();
  const controls = new FakeControls();
  const outcomes: StepOutcome[] = [];
  let paused = 0;
  const result = await runLoop({
    goal: "Fix add()",
    config: { stop: { maxIterations, noProgressIterations: 0 }, completion: { evidence: ["score"] } },
    ports: { agent, events: sink, scorers: [check(counts)] },
    controls,
    deps: clock,
    onStep: (o) => {
      outcomes.push(o);
      if (o.decision.kind === "pause") controls.add({ kind: ++paused > resumes ? "terminate" : "resume" }, "ops");
    },
  });
  const statuses = sink.events.flatMap((e) => (e.type === "status_changed" ? [e.to] : []));
  const attention = sink.events.flatMap((e) => (e.type === "tamper_needs_attention" ? [e] : []));
  return { result, statuses, attention, iterations: agent.requests.length };
}

describe("repeated tampering raises needs_attention", () => {
  it.each([
    {
      why: "one tampering iteration: only recorded, the loop goes on",
      counts: [1, null, null],
      max: 3,
      resumes: 0,
      iterations: 3,
      attentionAt: [],
      stop: "max_iterations",
    },
    {
      why: "the second (not in a row) waits for an operator",
      counts: [1, null, 2],
      max: 5,
      resumes: 0,
      iterations: 3,
      attentionAt: [3],
      stop: "explicit_stop",
    },
    {
      why: "two in a row: the loop waits after the second",
      counts: [1, 2],
      max: 5,
      resumes: 0,
      iterations: 2,
      attentionAt: [2],
      stop: "explicit_stop",
    },
    {
      why: "resumed, the next tampering iteration asks again",
      counts: [1, 2, 3],
      max: 5,
      resumes: 1,
      iterations: 3,
      attentionAt: [2, 3],
      stop: "explicit_stop",
    },
    {
      why: "the server's count from before this run counts (a resumed or restarted loop)",
      counts: [4],
      max: 5,
      resumes: 0,
      iterations: 1,
      attentionAt: [1],
      stop: "explicit_stop",
    },
    {
      why: "clean iterations never ask",
      counts: [null],
      max: 3,
      resumes: 0,
      iterations: 3,
      attentionAt: [],
      stop: "max_iterations",
    },
    {
      why: "on the last allowed iteration the loop stops at the maximum instead",
      counts: [1, 2],
      max: 2,
      resumes: 0,
      iterations: 2,
      attentionAt: [],
      stop: "max_iterations",
    },
  ])("$why", async ({ counts, max, resumes, iterations, attentionAt, stop }) => {
    const out = await run(counts, max, resumes);
    expect(out.iterations).toBe(iterations);
    expect(out.result.stopType).toBe(stop);
    expect(out.attention.map((e) => e.iterations)).toEqual(attentionAt.map((i) => counts[i - 1]));
    for (const e of out.attention) {
      expect(e.tampered).toEqual(["test/math.test.js"]);
      expect(e.reason).toContain("tampered with the evidence again (test/math.test.js)");
    }
    expect(out.statuses.filter((s) => s === "needs_attention")).toHaveLength(attentionAt.length);
  });
});
