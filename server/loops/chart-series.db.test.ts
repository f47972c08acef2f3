// Charts of long loops stay bounded and true: the downsampled series of a loop
// far longer than the point budget reaches its last iteration, keeps every
// dollar and token, and keeps what the score chart marks (a regression dip, a
// plateau's width, every handoff) as points; a window is sent at full resolution.
import { beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { scoreMarkers } from "../../lib/charts/score-markers";
import type { Database } from "../db/client";
import { cachedChartSeriesCount, chartSeries, clearChartSeriesCache } from "./chart-series";

const N = 1_234;
const POINTS = 100;

describeEachProvider("chart series", ({ db }) => {
  const loopId = "long-loop";
  const short = "short-loop";
  // A fork of the long loop at an iteration inside a bucket, holding the rest of its rows itself.
  const fork = "fork-of-long";
  const FORK_AT = 605;
  // Rising to #600, then a plateau to #1000 (no new best) with one dip at #777 that recovers at
  // once, then rising again; the dip and the plateau's edges all fall inside runs, not on their ends.
  const noise = (n: number) => ((n * 37) % 10) / 1000;
  const score = (n: number) =>
    n === 777 ? 0.2 : n <= 600 ? 0.1 + n / 1000 + noise(n) : n <= 1000 ? 0.69 - noise(n) : 0.7 + (n - 1000) / 1000;
  const rows: {
    number: number;
    attempt: number;
    status: string;
    costUsd: number;
    tokensIn: number;
    handoff: boolean;
  }[] = [];

  beforeAll(async () => {
    for (const id of [loopId, short, fork])
      await db().prisma.loop.create({ data: { id, goal: "g", agentKind: "demo", config: {}, status: "running" } });
    for (let n = 1; n <= N; n++) {
      // Every 50th iteration was interrupted once and re-run: two attempts, both paid for.
      if (n % 50 === 0)
        rows.push({ number: n, attempt: 1, status: "interrupted", costUsd: 0.004, tokensIn: 7, handoff: false });
      rows.push({
        number: n,
        attempt: n % 50 === 0 ? 2 : 1,
        status: n % 13 === 0 ? "failed" : "succeeded",
        costUsd: 0.001 * (1 + (n % 7)),
        tokensIn: 100 + (n % 11),
        handoff: n % 200 === 0,
      });
    }
    const at = new Date("2026-11-23T10:00:00Z");
    const data = (loop: string, list: typeof rows) =>
      list.map((r) => ({
        id: `${loop}-${r.number}-${r.attempt}`,
        loopId: loop,
        number: r.number,
        attempt: r.attempt,
        status: r.status,
        agentId: "agent",
        input: "",
        scores: { tests: { score: score(r.number), reason: null } },
        meanScore: r.status === "interrupted" ? null : score(r.number),
        costUsd: r.costUsd,
        tokensIn: r.tokensIn,
        handoffTrigger: r.handoff ? "context" : null,
        startedAt: at,
        finishedAt: at,
      }));
    for (let i = 0; i < rows.length; i += 500)
      await db().prisma.iteration.createMany({ data: data(loopId, rows.slice(i, i + 500)) });
    await db().prisma.iteration.createMany({
      data: data(
        short,
        rows.filter((r) => r.number <= 40),
      ),
    });
    const forkRows = rows.filter((r) => r.number > FORK_AT);
    for (let i = 0; i < forkRows.length; i += 500)
      await db().prisma.iteration.createMany({ data: data(fork, forkRows.slice(i, i + 500)) });
  });

  it("sends every attempt of a short loop", async () => {
    const { points, bucketSize } = await chartSeries(db(), short, POINTS);
    expect(bucketSize).toBe(1);
    expect(points).toHaveLength(rows.filter((r) => r.number <= 40).length);
    expect(points.every((p) => p.span === undefined)).toBe(true);
    expect(points.at(-1)!.scores).toEqual({ tests: score(40) });
  });

  it("downsamples a long loop to the point budget, to its last iteration, with exact totals", async () => {
    const { points, bucketSize } = await chartSeries(db(), loopId, POINTS);
    expect(bucketSize).toBe(Math.ceil(N / Math.floor(POINTS / 3)));
    expect(points.length).toBeLessThanOrEqual(POINTS);
    expect(points.at(-1)!.number).toBe(N);
    // Spans tile 1..N with no gap and no overlap.
    let next = 1;
    for (const p of points) {
      expect(p.span!.from).toBe(next);
      expect(p.number).toBe(p.span!.to);
      next = p.span!.to + 1;
    }
    expect(next).toBe(N + 1);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(points.map((p) => p.costUsd))).toBeCloseTo(sum(rows.map((r) => r.costUsd)), 9);
    expect(sum(points.map((p) => p.tokensIn))).toBe(sum(rows.map((r) => r.tokensIn)));
    expect(sum(points.map((p) => p.span!.attempts))).toBe(rows.length);
    expect(sum(points.map((p) => p.span!.failures))).toBe(rows.filter((r) => r.status !== "succeeded").length);
    expect(sum(points.map((p) => p.span!.handoffs))).toBe(rows.filter((r) => r.handoff).length);
    // A point's own score is its iteration's, last attempt.
    expect(points.at(-1)!.scores).toEqual({ tests: score(N) });
  });

  it("keeps the dip, every handoff and the plateau's width through downsampling", async () => {
    const { points } = await chartSeries(db(), loopId, POINTS);
    // The dip is a point of its own, with its own score: the chart marks it as a regression.
    expect(points.find((p) => p.number === 777)?.meanScore).toBeCloseTo(0.2, 9);
    const markers = scoreMarkers(points, { plateauAfter: 100 });
    expect(markers.filter((m) => m.kind === "regression").map((m) => m.iteration)).toContain(777);
    // One plateau, from about #601 to about #1000 (within one run of either end), counted in iterations.
    const plateaus = markers.filter((m) => m.kind === "plateau");
    expect(plateaus).toHaveLength(1);
    const size = Math.ceil(N / Math.floor(POINTS / 3));
    expect(plateaus[0]!.from).toBeGreaterThanOrEqual(601 - size);
    expect(plateaus[0]!.from).toBeLessThanOrEqual(601 + size);
    expect(plateaus[0]!.to).toBeGreaterThanOrEqual(1000 - size);
    expect(plateaus[0]!.to).toBeLessThanOrEqual(1000 + size);
    // Every fresh context is a point with its trigger (here no run holds two).
    const handoffs = rows.filter((r) => r.handoff).map((r) => r.number);
    expect(points.filter((p) => p.handoffTrigger !== null).map((p) => p.number)).toEqual(handoffs);
  });

  it("sends a window at full resolution: every attempt of iterations from..to, nothing else", async () => {
    const { points, bucketSize } = await chartSeries(db(), loopId, POINTS, { from: 740, to: 790 });
    expect(bucketSize).toBe(1);
    const expected = rows.filter((r) => r.number >= 740 && r.number <= 790);
    expect(points.map((p) => [p.number, p.attempt])).toEqual(expected.map((r) => [r.number, r.attempt]));
    expect(points.every((p) => p.span === undefined)).toBe(true);
    expect(points.find((p) => p.number === 777)!.meanScore).toBeCloseTo(0.2, 9);
    // A window wider than the budget is downsampled like the whole, inside its bounds.
    const wide = await chartSeries(db(), loopId, POINTS, { from: 201, to: 1200 });
    expect(wide.bucketSize).toBeGreaterThan(1);
    expect(wide.points.length).toBeLessThanOrEqual(POINTS);
    expect(wide.points[0]!.span!.from).toBe(201);
    expect(wide.points.at(-1)!.number).toBe(1200);
    // A window past the end is empty.
    expect((await chartSeries(db(), loopId, POINTS, { from: N + 1, to: N + 50 })).points).toEqual([]);
  });

  it("reads a fork's window across the fork point from both loops", async () => {
    const lineage = [
      { loopId, after: 0, upTo: FORK_AT },
      { loopId: fork, after: FORK_AT, upTo: null },
    ];
    const { points } = await chartSeries(db(), lineage, POINTS, { from: FORK_AT - 2, to: FORK_AT + 2 });
    expect(points.map((p) => [p.number, p.loopId])).toEqual([
      [FORK_AT - 2, loopId],
      [FORK_AT - 1, loopId],
      [FORK_AT, loopId],
      [FORK_AT + 1, fork],
      [FORK_AT + 2, fork],
    ]);
  });

  it("draws a fork's lineage like the one loop it continues, a bucket straddling the fork point joined", async () => {
    const whole = await chartSeries(db(), loopId, POINTS);
    const lineage = await chartSeries(
      db(),
      [
        { loopId, after: 0, upTo: FORK_AT },
        { loopId: fork, after: FORK_AT, upTo: null },
      ],
      POINTS,
    );
    expect(lineage.bucketSize).toBe(whole.bucketSize);
    // The straddling bucket's spend is summed in two halves: equal up to float rounding.
    const strip = (points: typeof whole.points) => points.map(({ loopId: _l, costUsd: _c, ...p }) => p);
    expect(strip(lineage.points)).toEqual(strip(whole.points));
    lineage.points.forEach((p, i) => expect(p.costUsd).toBeCloseTo(whole.points[i]!.costUsd, 12));
    expect(lineage.points.at(-1)!.loopId).toBe(fork);
    expect(lineage.points[0]!.loopId).toBe(loopId);
  });

  it("reuses a downsampled series until the loop gains an attempt or an iteration, and draws that at once", async () => {
    const grow = "growing-loop";
    await db().prisma.loop.create({ data: { id: grow, goal: "g", agentKind: "demo", config: {}, status: "running" } });
    const at = new Date("2026-11-23T10:00:00Z");
    const row = (number: number, attempt: number, meanScore: number, costUsd: number, handoff = false) => ({
      id: `${grow}-${number}-${attempt}`,
      loopId: grow,
      number,
      attempt,
      status: "succeeded",
      agentId: "agent",
      input: "",
      scores: { tests: { score: meanScore, reason: null } },
      meanScore,
      costUsd,
      handoffTrigger: handoff ? "context" : null,
      startedAt: at,
      finishedAt: at,
    });
    await db().prisma.iteration.createMany({
      data: Array.from({ length: 300 }, (_, i) => row(i + 1, 1, 0.5 + ((i * 7) % 10) / 100, 0.01)),
    });
    const total = (points: { costUsd: number }[]) => points.reduce((a, p) => a + p.costUsd, 0);
    const first = await chartSeries(db(), grow, POINTS);
    expect(first.bucketSize).toBeGreaterThan(1);
    expect(await chartSeries(db(), grow, POINTS)).toBe(first);
    clearChartSeriesCache(db());
    const recomputed = await chartSeries(db(), grow, POINTS);
    expect(recomputed).not.toBe(first);
    expect(recomputed).toEqual(first);

    // A second attempt of the last iteration, scoring the loop's lowest: a new minimum and more spend.
    await db().prisma.iteration.create({ data: row(300, 2, 0.01, 1) });
    const retried = await chartSeries(db(), grow, POINTS);
    expect(total(retried.points)).toBeCloseTo(300 * 0.01 + 1, 9);
    expect(retried.points.at(-1)!.meanScore).toBeCloseTo(0.01, 9);
    expect(retried.points.at(-1)!.span!.minScore).toBeCloseTo(0.01, 9);
    // The next iteration, a handoff: the last point and a handoff point at once.
    await db().prisma.iteration.create({ data: row(301, 1, 0.6, 0.01, true) });
    const next = await chartSeries(db(), grow, POINTS);
    expect(next.points.at(-1)!.number).toBe(301);
    expect(next.points.at(-1)!.handoffTrigger).toBe("context");
    expect(total(next.points)).toBeCloseTo(301 * 0.01 + 1, 9);
    // Downsampled whole again: the same series (a span's spend summed in another order: up to float rounding).
    clearChartSeriesCache(db());
    const whole = await chartSeries(db(), grow, POINTS);
    const strip = (points: typeof whole.points) => points.map(({ costUsd: _c, ...p }) => p);
    expect(strip(whole.points)).toEqual(strip(next.points));
    whole.points.forEach((p, i) => expect(p.costUsd).toBeCloseTo(next.points[i]!.costUsd, 12));
  });

  it("extends a growing loop's series incrementally, equal to downsampling it whole after every append", async () => {
    const loop = "appending-loop";
    const forked = "appending-fork";
    for (const id of [loop, forked])
      await db().prisma.loop.create({ data: { id, goal: "g", agentKind: "demo", config: {}, status: "running" } });
    const at = new Date("2026-11-23T10:00:00Z");
    // Rising with noise, a plateau (one score repeated, ties on every run's extremes), regressions (deep
    // single dips), failed and interrupted attempts (no score), and a handoff every 17th iteration.
    const scoreOf = (n: number, attempt: number) =>
      attempt > 1 && n % 3 === 0
        ? 0.05
        : n % 41 === 0
          ? 0.1
          : n >= 90 && n < 160
            ? 0.6
            : Math.min(0.95, 0.2 + n / 400 + ((n * 53) % 7) / 100);
    const row = (id: string, n: number, attempt: number, interrupted = false) => ({
      id: `${id}-${n}-${attempt}`,
      loopId: id,
      number: n,
      attempt,
      status: interrupted ? "interrupted" : n % 5 === 0 ? "failed" : "succeeded",
      agentId: "agent",
      input: "",
      scores: { tests: { score: scoreOf(n, attempt), reason: null } },
      meanScore: interrupted ? null : scoreOf(n, attempt),
      costUsd: 0.001 * (1 + ((n * 13 + attempt) % 9)),
      tokensIn: 100 + (n % 17),
      tokensOut: 10 + attempt,
      handoffTrigger: n % 17 === 0 ? "context" : null,
      startedAt: at,
      finishedAt: at,
    });
    const POINTS_SMALL = 30; // runs of n/10: the run length changes every ten iterations or so at first
    // The parent holds 1..FORK and the fork the rest, as a fork's lineage reads them.
    const FORK = 40;
    await db().prisma.iteration.createMany({ data: Array.from({ length: 45 }, (_, i) => row(loop, i + 1, 1)) });
    await db().prisma.iteration.createMany({
      data: Array.from({ length: 45 - FORK }, (_, i) => row(forked, FORK + i + 1, 1)),
    });
    const lineage = [
      { loopId: loop, after: 0, upTo: FORK },
      { loopId: forked, after: FORK, upTo: null },
    ];
    const fresh = () => Object.create(db()) as Database; // a handle of its own: an empty series cache
    const strip = (points: { costUsd: number }[]) => points.map(({ costUsd: _c, ...p }) => p);
    let last = 45;
    let attempt = 1;
    let extended = 0;
    let previous = await chartSeries(db(), loop, POINTS_SMALL);
    let previousFork = await chartSeries(db(), lineage, POINTS_SMALL);
    for (let step = 0; step < 120; step++) {
      // Mostly the next iteration; every 4th step another attempt of the last (interrupted, then a re-run
      // that may score the run's new lowest); every 9th a batch of 6 at once, across a run boundary.
      const appended =
        step % 4 === 3
          ? [{ n: last, attempt: ++attempt, interrupted: attempt === 2 }]
          : Array.from({ length: step % 9 === 8 ? 6 : 1 }, () => ({
              n: ++last,
              attempt: (attempt = 1),
              interrupted: false,
            }));
      // Every appended number is past the fork point: the parent (a loop of its own here) and the fork gain it.
      for (const id of [loop, forked])
        await db().prisma.iteration.createMany({ data: appended.map((a) => row(id, a.n, a.attempt, a.interrupted)) });
      const incremental = await chartSeries(db(), loop, POINTS_SMALL);
      const whole = await chartSeries(fresh(), loop, POINTS_SMALL);
      expect(incremental).not.toBe(previous);
      expect(incremental.bucketSize).toBe(whole.bucketSize);
      expect(strip(incremental.points)).toEqual(strip(whole.points));
      incremental.points.forEach((p, i) => expect(p.costUsd).toBeCloseTo(whole.points[i]!.costUsd, 12));
      // The same points objects at the start: the series was extended, not downsampled again.
      if (incremental.points[0] === previous.points[0]) extended++;
      previous = incremental;
      const forkIncremental = await chartSeries(db(), lineage, POINTS_SMALL);
      const forkWhole = await chartSeries(fresh(), lineage, POINTS_SMALL);
      expect(strip(forkIncremental.points)).toEqual(strip(forkWhole.points));
      expect(forkIncremental.points.map((p) => p.loopId)).toEqual(forkWhole.points.map((p) => p.loopId));
      previousFork = forkIncremental;
    }
    expect(previousFork.points.at(-1)!.number).toBe(last);
    // Most appends keep the run length (it changes about once per ten iterations here).
    expect(extended).toBeGreaterThan(60);
  });

  it("keeps a bounded number of series per database", async () => {
    clearChartSeriesCache(db());
    for (let from = 1; from <= 20; from++) await chartSeries(db(), loopId, 30, { from, to: from + 100 });
    expect(cachedChartSeriesCount(db())).toBe(16);
  });
});
