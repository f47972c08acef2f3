import { afterAll, describe, expect, it } from "vitest";
import { runLoop } from "../engine";
import { AgentError } from "./agent-error";
import { demoCoverage } from "./demo.executor";
import { demoLoopPreset } from "./demo.preset";
import { realEngineDeps, request, tempRoot, testDeps } from "./fixtures/harness";
import { createAgent, createPorts } from "./registry";

const tmp = tempRoot();
afterAll(() => tmp.cleanup());
const deps = testDeps(tmp.root);
const goal = "Write a migration plan for moving user sessions from cookies to signed tokens";

async function attempt(config: Record<string, unknown>, iteration: number, attemptNo = 1) {
  return createAgent({ kind: "demo", ...config }, deps)
    .run(request({ goal, input: goal, iteration, attempt: attemptNo }))
    .catch((e: unknown) => e as AgentError);
}

describe("demo agent", () => {
  it("is deterministic for a seed and labelled demo", async () => {
    const a = await attempt({ seed: 7, failureRate: 0 }, 3);
    const b = await attempt({ seed: 7, failureRate: 0 }, 3);
    const c = await attempt({ seed: 8, failureRate: 0 }, 3);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    if (a instanceof Error) throw a;
    expect(a.meta).toMatchObject({ kind: "demo", label: "demo" });
    expect(a.output.startsWith("[demo]")).toBe(true);
    expect(a.usage.input + a.usage.cache).toBeGreaterThan(400);
    expect(a.usage.cache).toBeGreaterThan(0);
    expect(a.costUsd).toBeGreaterThan(0);
  });

  it("improves over iterations, with plateaus, until complete", () => {
    const curve = Array.from({ length: 14 }, (_, i) => demoCoverage(42, 6, i + 1));
    for (let i = 1; i < curve.length; i++) expect(curve[i]).toBeGreaterThanOrEqual(curve[i - 1]!);
    expect(curve[0]).toBeGreaterThan(0);
    expect(curve.at(-1)).toBe(1);
    expect(curve.some((v, i) => i > 0 && v === curve[i - 1] && v < 1)).toBe(true);
  });

  it("sometimes fails and sometimes claims done too early", async () => {
    let failures = 0;
    let early = 0;
    for (let seed = 1; seed <= 30; seed++) {
      for (let iteration = 1; iteration <= 6; iteration++) {
        const result = await attempt({ seed }, iteration);
        if (result instanceof AgentError) {
          expect(result.retryable).toBe(true);
          failures++;
        } else if (result.claim.done && (result.meta?.coverage as number) < 1) early++;
      }
    }
    expect(failures).toBeGreaterThan(5);
    expect(early).toBeGreaterThan(5);
  });

  it("waits delayMs per iteration with progress, and stops at once when aborted", async () => {
    const started = Date.now();
    const events: string[] = [];
    await createAgent({ kind: "demo", delayMs: 200, failureRate: 0 }, deps).run(
      request({ goal, onProgress: (e) => events.push(e.kind) }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    // Each beat is a progress report and a line of output for the live view.
    expect(events.filter((k) => k === "progress")).toHaveLength(4);
    expect(events.filter((k) => k === "output")).toHaveLength(4);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await createAgent({ kind: "demo", delayMs: 10_000 }, deps)
      .run(request({ goal, signal: controller.signal }))
      .then(
        () => undefined,
        (e: unknown) => e as AgentError,
      );
    expect(error?.code).toBe("aborted");
  });

  it("demoLoopPreset runs to a score-backed success on the engine, early claims notwithstanding", async () => {
    const preset = demoLoopPreset(goal, { delayMs: 0 });
    const result = await runLoop({
      goal: preset.goal,
      config: preset.loop,
      ports: createPorts(preset, deps, "demo-loop"),
      deps: realEngineDeps(),
    });
    expect(result.report.success).toBe(true);
    expect(result.stopType).toBe("score_threshold");
    expect(result.report.costUsd).toBeGreaterThan(0);
    const scores = result.records.map((r) => r.scores.coverage ?? 0);
    expect(scores.at(-1)).toBe(1);
    expect(scores[0]).toBeLessThan(0.5);
    const means = result.records.map((r) => r.meanScore ?? 0);
    expect(means.some((m, i) => i > 0 && m === means[i - 1] && m < 1)).toBe(true); // a plateau
    expect(result.records.some((r) => r.claimMismatch === "claimed_done_without_evidence")).toBe(true);
    expect(result.records.some((r) => r.attempts > 1)).toBe(true); // a simulated provider error, retried
  }, 30_000);
});
