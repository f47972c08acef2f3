import { describe, expect, it } from "vitest";
import { buildAlertMessage, type AlertLoop } from "./alert-messages";

const loop: AlertLoop = {
  id: "0d5c3c9e-0000-4000-8000-000000000001",
  name: "Nightly refactor",
  goal: "g",
  status: "waiting",
  stopType: null,
  stopReason: null,
  health: "healthy",
  iteration: 8,
  maxIterations: 20,
  costUsd: 0.82,
  budgetUsd: 1,
  bestScore: 0.5,
};

describe("alert messages", () => {
  it("a budget throttle in enforce mode says the loop, the numbers and what the operator can do (issue 31)", () => {
    const message = buildAlertMessage({
      id: "a1",
      kind: "budget",
      loop,
      event: {
        id: 7,
        type: "budget_alert",
        reason: "82.0% of budget used ($0.82 of $1.00): throttled from 80.0%, the next iteration waits 5 s",
        actor: "engine",
        payload: { action: "THROTTLE", usedFraction: 0.82, costUsd: 0.82, maxCostUsd: 1 },
        createdAt: new Date(0),
      },
      publicUrl: "https://ralph.example",
      now: new Date(0),
    });
    expect(message.title).toBe(
      '"Nightly refactor" is throttled by its budget: 82% used ($0.82 of $1.00); each iteration now waits first, ' +
        "and the loop stops at the budget. Raise the budget (Edit limits) to go on at full pace",
    );
    expect(message.summary).toBe("waiting, iteration 8/20, $0.82 of $1.00 spent, health healthy, best score 0.50");
    expect(message.url).toBe(`https://ralph.example/loops/${loop.id}`);
  });
});
