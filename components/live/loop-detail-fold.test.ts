import { describe, expect, it } from "vitest";
import {
  foldAlarmRaised,
  foldControlEvent,
  foldIterationFinished,
  iterationSummaryOf,
  type LoopDetail,
} from "./loop-detail-fold";

const point = (number: number, attempt = 1) => ({
  loopId: "L",
  number,
  attempt,
  status: "ok",
  scores: { tests: 0.5 },
  meanScore: 0.5,
  costUsd: 0.01,
  tokensIn: 10,
  tokensOut: 5,
  tokensCache: 0,
  durationMs: 2000,
  health: "healthy",
  handoffTrigger: null,
  claimedDone: false,
  claimMismatch: false,
  evidenceComplete: false,
  finishedAt: 1_000 * number,
});

function detail(iterations: number, bucketSize = 1): LoopDetail {
  const series = Array.from({ length: iterations }, (_, i) => ({
    ...point(i + 1),
    finishedAt: new Date(1_000 * (i + 1)),
  }));
  return {
    loop: {
      iteration: iterations,
      costUsd: 0.01 * iterations,
      tokensIn: 10 * iterations,
      tokensOut: 5 * iterations,
      tokensCache: 0,
      bestScore: 0.5,
      lastScore: 0.5,
      health: "healthy",
      status: "running",
      lastActivityAt: new Date(1_000 * iterations),
    },
    series,
    seriesBucketSize: bucketSize,
    forecast: {
      costPerIteration: 0.01,
      tokensPerIteration: 15,
      remainingIterations: 10 - iterations,
      projectedCostToFinish: 0.01 * (10 - iterations),
      projectedTotalCost: 0.1,
      iterationsUntilExhausted: null,
    },
  } as unknown as LoopDetail;
}

const finished = (n: number, over: { attempt?: number; loop?: object } = {}) => ({
  id: 100 + n,
  type: "iteration_finished",
  payload: {
    iteration: n,
    status: "ok",
    summary: {
      loop: {
        iteration: n,
        costUsd: 0.01 * n + 0.002,
        tokensIn: 10 * n,
        tokensOut: 5 * n,
        tokensCache: 0,
        bestScore: 0.9,
        lastScore: 0.9,
        health: "degraded",
        lastActivityAt: 1_000 * n + 5,
        ...over.loop,
      },
      point: { ...point(n, over.attempt), meanScore: 0.9 },
    },
  },
});

describe("foldIterationFinished", () => {
  it("moves the loop's counters and series to the next iteration", () => {
    const old = detail(3);
    const fold = foldIterationFinished(old, finished(4));
    expect(fold.kind).toBe("patched");
    if (fold.kind !== "patched") return;
    expect(fold.detail.loop).toMatchObject({
      iteration: 4,
      costUsd: 0.042,
      bestScore: 0.9,
      lastScore: 0.9,
      health: "degraded",
      status: "running",
    });
    expect(fold.detail.loop.lastActivityAt).toEqual(new Date(4005));
    expect(fold.detail.series.map((p) => p.number)).toEqual([1, 2, 3, 4]);
    expect(fold.detail.series.at(-1)!.finishedAt).toEqual(new Date(4000));
    // The forecast moves with the spend it is read beside (one iteration fewer to run, from $0.042).
    expect(fold.detail.forecast).toEqual({
      ...old.forecast,
      remainingIterations: 6,
      projectedCostToFinish: expect.closeTo(0.06, 10),
      projectedTotalCost: expect.closeTo(0.102, 10),
    });
    // The old cache is not mutated (React Query compares by identity).
    expect(old.series).toHaveLength(3);
    expect(old.loop.iteration).toBe(3);
  });

  it("treats a replayed event as seen, so it cannot double-count or go back", () => {
    let cache = detail(3);
    const four = finished(4);
    const first = foldIterationFinished(cache, four);
    if (first.kind !== "patched") throw new Error("expected a patch");
    cache = first.detail;
    expect(foldIterationFinished(cache, four)).toEqual({ kind: "seen" });
    expect(foldIterationFinished(cache, finished(2))).toEqual({ kind: "seen" });
    expect(cache.loop.costUsd).toBe(0.042);
    expect(cache.series).toHaveLength(4);
  });

  it("asks for a refetch on a gap instead of skipping an iteration", () => {
    expect(foldIterationFinished(detail(3), finished(5))).toEqual({ kind: "refetch" });
  });

  it("asks for a refetch when the series misses an iteration the counter says it has", () => {
    const old = detail(3);
    const shorter = { ...old, series: old.series.slice(0, 2) };
    expect(foldIterationFinished(shorter, finished(3))).toEqual({ kind: "refetch" });
  });

  it("patches an iteration whose first attempt never committed (its point is attempt 2)", () => {
    const fold = foldIterationFinished(detail(3), finished(4, { attempt: 2 }));
    if (fold.kind !== "patched") throw new Error("expected a patch");
    expect(fold.detail.series.at(-1)).toMatchObject({ number: 4, attempt: 2 });
  });

  it("leaves a downsampled series to the refetch but still moves the counters", () => {
    const old = detail(3, 5);
    const fold = foldIterationFinished(old, finished(4));
    if (fold.kind !== "patched") throw new Error("expected a patch");
    expect(fold.detail.series).toBe(old.series);
    expect(fold.detail.loop.iteration).toBe(4);
  });

  it("refetches for events without a summary, malformed ones, other types and an empty cache", () => {
    const bare = { type: "iteration_finished", payload: { iteration: 4, status: "ok" } };
    expect(foldIterationFinished(detail(3), bare)).toEqual({ kind: "refetch" });
    expect(foldIterationFinished(detail(3), finished(4, { loop: { costUsd: "1" } }))).toEqual({ kind: "refetch" });
    expect(foldIterationFinished(detail(3), { ...finished(4), type: "checkpoint_created" })).toEqual({
      kind: "refetch",
    });
    expect(foldIterationFinished(undefined, finished(4))).toEqual({ kind: "refetch" });
    const queued = detail(3);
    expect(foldIterationFinished({ ...queued, loop: { ...queued.loop, status: "queued" } }, finished(4))).toEqual({
      kind: "refetch",
    });
    expect(iterationSummaryOf(null)).toBeNull();
  });
});

describe("foldAlarmRaised", () => {
  const raised = (payload: object) => ({ type: "alarm_raised", payload });
  const runaway = {
    alarm: "runaway",
    title: "Runaway",
    detail: "7 iterations in the last 60 s (limit 5)",
    action: "pause",
  };

  it("shows the raised alarm at once, replacing an older one of its kind", () => {
    const old = { ...detail(3), alarms: [{ kind: "runaway", title: "Runaway", detail: "old", action: "alert" }] };
    const next = foldAlarmRaised(old as LoopDetail, raised(runaway));
    expect(next!.alarms).toEqual([{ kind: "runaway", title: "Runaway", detail: runaway.detail, action: "pause" }]);
    expect(old.alarms[0]!.detail).toBe("old");
  });

  it("leaves the cache alone for malformed or unknown alarms", () => {
    const old = { ...detail(3), alarms: [] } as unknown as LoopDetail;
    expect(foldAlarmRaised(old, raised({ ...runaway, alarm: "meteor" }))).toBe(old);
    expect(foldAlarmRaised(old, raised({ alarm: "runaway", detail: "x", action: "pause" }))).toBe(old);
    expect(foldAlarmRaised(old, raised({ ...runaway, action: "explode" }))).toBe(old);
    expect(foldAlarmRaised(undefined, raised(runaway))).toBeUndefined();
  });
});

describe("foldControlEvent", () => {
  const running = () =>
    ({
      ...detail(3),
      loop: { ...detail(3).loop, displayStatus: "running" },
      pendingControls: [],
    }) as unknown as LoopDetail;
  const event = (type: string, payload: Record<string, unknown>) => ({
    type,
    actor: "ops@example.com",
    reason: "too slow",
    createdAt: new Date(5_000),
    payload,
  });
  const stored = (requestId: string, command: string, displayStatus = "running") =>
    event("control_requested", { requestId, command, outcome: "stored", displayStatus });

  it("shows a stored request as pending, with the status it makes, from its event alone", () => {
    const old = running();
    const next = foldControlEvent(old, stored("r1", "kill", "interrupting"))!;
    expect(next.pendingControls).toEqual([
      { id: "r1", kind: "kill", actor: "ops@example.com", reason: "too slow", createdAt: new Date(5_000) },
    ]);
    expect(next.loop.displayStatus).toBe("interrupting");
    expect(next.loop.status).toBe("running");
    expect(old.pendingControls).toEqual([]);
  });

  it("takes a request off once it is answered, applied or rejected", () => {
    const both = foldControlEvent(foldControlEvent(running(), stored("r1", "nudge")), stored("r2", "kill"))!;
    const applied = foldControlEvent(both, event("control_applied", { requestId: "r1", command: "nudge" }))!;
    expect(applied.pendingControls.map((c) => c.id)).toEqual(["r2"]);
    const rejected = foldControlEvent(applied, event("control_rejected", { requestId: "r2", command: "kill" }))!;
    expect(rejected.pendingControls).toEqual([]);
  });

  it("changes nothing for a replay, an applied-at-once request, or a malformed event", () => {
    const once = foldControlEvent(running(), stored("r1", "nudge"))!;
    expect(foldControlEvent(once, stored("r1", "nudge"))).toBe(once);
    const old = running();
    expect(
      foldControlEvent(old, event("control_requested", { requestId: "r3", command: "nudge", outcome: "applied" })),
    ).toBe(old);
    expect(foldControlEvent(old, event("control_applied", { requestId: "r9", command: "nudge" }))).toBe(old);
    expect(foldControlEvent(old, event("control_requested", { command: "nudge", outcome: "stored" }))).toBe(old);
    expect(foldControlEvent(old, event("control_requested", { requestId: 4, outcome: "stored" }))).toBe(old);
    expect(foldControlEvent(undefined, stored("r1", "nudge"))).toBeUndefined();
    // An unknown status is not shown; the request still is.
    expect(foldControlEvent(old, stored("r1", "kill", "exploding"))!.loop.displayStatus).toBe("running");
  });
});
