// Issue 17, "a budget that holds", end to end: a real CLI agent (the counting
// fixture) reports its cost on stdout, the command executor parses it, the
// runtime records it, and the engine's safe point must stop the loop before
// the next iteration would pass the limit. Spend is read from the stored rows.
import { join } from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, waitFor } from "../../test/runtime-harness";
import { countingAgent, readCalls } from "../../test/worker-process";
import { tempRoot } from "../agents/fixtures/harness";
import { loopDefinitionSchema } from "../loops/loop-definition";
import { createLoopFromDefinition } from "../loops/loop-create.service";
import { LocalDispatcher } from "./local-dispatcher";
import { startDefinitionRuntime } from "../../test/definition-runtime";

const tmp = tempRoot("ralph-budget-");
afterAll(() => tmp.cleanup());
let seq = 0;

describeEachProvider("a budget that holds", ({ db }) => {
  const dispatchers: LocalDispatcher[] = [];
  afterEach(async () => {
    for (const d of dispatchers.splice(0)) await d.stop();
  });

  async function run(costs: number[], limits: Record<string, unknown>) {
    const { services } = startDefinitionRuntime(db(), { root: tmp.root, instanceId: "budget-test" });
    dispatchers.push(services.dispatcher);
    const countFile = join(tmp.root, `calls-${process.pid}-${++seq}.log`);
    const agent = countingAgent(countFile, 0);
    const definition = loopDefinitionSchema.parse({
      goal: "spend carefully",
      agent: { ...agent, env: { ...agent.env, COSTS: costs.join(",") } },
      loop: {
        stop: { maxIterations: 20, noProgressIterations: 0, maxConsecutiveFailures: 0 },
        health: { checkInterval: 0 },
        completion: { allowNoEvidence: true },
        ...limits,
      },
    });
    const id = (await createLoopFromDefinition(services, definition, true, asOperator())).id;
    const loop = await waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => ["stopped", "completed", "failed"].includes(l.status),
      90_000,
    );
    const iterations = await db().prisma.iteration.findMany({ where: { loopId: id }, orderBy: { number: "asc" } });
    const halted = await db().prisma.loopEvent.findFirst({ where: { loopId: id, type: "halted" } });
    return { loop, iterations, calls: readCalls(countFile), halted };
  }

  const spent = (rows: { costUsd: number }[]) => rows.reduce((s, r) => s + r.costUsd, 0);

  it.each([
    ["budget.maxCostUsd", { budget: { maxCostUsd: 0.015 } }, "budget_exhausted"],
    ["stop.maxCost", { stop: { maxIterations: 20, noProgressIterations: 0, maxCost: 0.015 } }, "max_cost"],
  ])("a $0.015 %s at about $0.005 an iteration stops at or below $0.015", async (_name, limits, stopType) => {
    const { loop, iterations, calls } = await run([0.0049, 0.0052, 0.0048, 0.0051, 0.005], limits);
    expect(loop.stopType).toBe(stopType);
    expect(spent(iterations)).toBeLessThanOrEqual(0.015);
    expect(loop.costUsd).toBeLessThanOrEqual(0.015);
    expect(loop.costUsd).toBeCloseTo(spent(iterations), 10);
    // It did use the budget: two iterations ($0.0101), as a third at up to $0.0052 would pass it.
    expect(iterations).toHaveLength(2);
    expect(calls).toHaveLength(2);
    expect(loop.stopReason).toContain("the next iteration is expected to cost about $0.0052");
  });

  it("exact costs meet the budget and stop there", async () => {
    const { loop, iterations } = await run([0.005], { budget: { maxCostUsd: 0.015 } });
    expect(iterations).toHaveLength(3);
    expect(loop.costUsd).toBeCloseTo(0.015, 10);
    expect(loop.stopType).toBe("budget_exhausted");
  });

  it("an iteration that costs more than expected is reported as an overshoot, with by how much", async () => {
    const { loop, iterations, halted } = await run([0.005, 0.005, 0.0065], {
      stop: { maxIterations: 20, noProgressIterations: 0, maxCost: 0.015 },
    });
    expect(iterations.map((i) => i.costUsd)).toEqual([0.005, 0.005, 0.0065]);
    expect(loop.stopType).toBe("max_cost");
    expect(loop.stopReason).toContain("$0.0165 spent of the $0.015 cost limit: $0.0015 (10.0%) over");
    expect(loop.stopReason).toContain("iteration 3 cost $0.0065, $0.0015 more than the $0.005 expected");
    expect(halted?.reason).toContain("$0.0015 (10.0%) over");
  });
});
