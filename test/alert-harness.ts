/**
 * Test support for the alert outbox tests: real local receivers, delivery deps
 * with a short retry policy, a loop row, a channel, and a drain that runs
 * delivery passes until nothing is due.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { ALERT_KINDS, type AlertKind } from "../server/alert-kinds";
import type { NewLoopEvent } from "../server/db/events.repo";
import { createAlertChannel } from "../server/alerts/alert-channels.service";
import { deliverDueAlerts, type DeliveryDeps } from "../server/alerts/alert-delivery.service";
import { secretKeyFrom } from "../server/secrets/secret-box";
import { startAlertReceiver, type AlertReceiver } from "./alert-receiver";
import type { ProviderContext } from "./db-providers";

export const keyBytes = randomBytes(32);
export const key = secretKeyFrom(keyBytes);
export const admin = { id: null, name: "admin@test" };

/** One event of each alert kind, plus two that raise none. */
export const eventsOfEveryKind = (loopId: string): NewLoopEvent[] => [
  { loopId, type: "iteration_finished", payload: { iteration: 1 } },
  {
    loopId,
    type: "approval_requested",
    payload: { gateId: "g", kind: "before_completion", deadlineAt: 1_900_000_000_000 },
  },
  { loopId, type: "budget_alert", payload: { action: "ALERT_ONLY", usedFraction: 0.8 } },
  { loopId, type: "intervention", payload: { level: "escalate", message: "no heartbeat for 2 minutes" } },
  { loopId, type: "intervention", payload: { level: "nudge", message: "routine" } },
  { loopId, type: "health_changed", payload: { from: "degraded", to: "stuck" } },
  { loopId, type: "alarm_raised", payload: { alarm: "runaway", detail: "75 iterations in the last minute" } },
  { loopId, type: "halted", payload: { stopType: "max_iterations", status: "stopped" } },
  // A recurrence inside a waiting period raises nothing; a new period does.
  { loopId, type: "limit_wait_started", payload: { until: 1_900_000_000_000, newPeriod: false } },
  { loopId, type: "limit_wait_started", payload: { until: 1_900_000_000_000, newPeriod: true } },
];

/** Registers the receivers' cleanup; call inside the provider's describe. */
export function alertHarness(db: ProviderContext["db"]) {
  const receivers: AlertReceiver[] = [];
  const receiver = async (...args: Parameters<typeof startAlertReceiver>) => {
    const r = await startAlertReceiver(...args);
    receivers.push(r);
    return r;
  };
  afterAll(() => Promise.all(receivers.map((r) => r.close())));

  const deps = (over: Partial<DeliveryDeps> = {}): DeliveryDeps => ({
    now: Date.now,
    random: () => 0.5,
    key,
    publicUrl: "https://ralph.example",
    allowHosts: ["127.0.0.1"],
    owner: `deliverer-${randomUUID()}`,
    policy: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 5, timeoutMs: 2_000 },
    ...over,
  });

  const newLoop = async (name = "Nightly refactor") => {
    const id = randomUUID();
    await db().prisma.loop.create({
      data: {
        id,
        name,
        goal: "g",
        agentKind: "demo",
        config: {},
        status: "running",
        iteration: 4,
        maxIterations: 10,
        costUsd: 0.5,
        budgetUsd: 2,
      },
    });
    return id;
  };
  const channel = async (
    url: string,
    events: AlertKind[] = [...ALERT_KINDS],
    kind: "webhook" | "slack" | "discord" = "webhook",
  ) =>
    createAlertChannel(
      db(),
      key,
      { name: `ch-${randomUUID()}`, kind, url, events },
      {
        actor: admin,
        newId: randomUUID,
        allowHosts: ["127.0.0.1"],
      },
    );
  /** Runs passes until nothing is due (or `passes` ran). */
  const drain = async (d: DeliveryDeps, passes = 40) => {
    for (let i = 0; i < passes; i++) {
      const counts = await deliverDueAlerts(db(), d);
      if (counts.delivered + counts.retry + counts.dead + counts.lost === 0) {
        const pending = await db().prisma.alertDelivery.count({ where: { status: "pending" } });
        if (pending === 0) return;
        await new Promise((r) => setTimeout(r, 15));
      }
    }
  };
  const disableAll = () => db().prisma.alertChannel.updateMany({ data: { enabled: false } });

  beforeAll(async () => {
    await disableAll();
  });

  return { receiver, deps, newLoop, channel, drain, disableAll };
}
