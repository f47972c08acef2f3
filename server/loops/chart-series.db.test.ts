// Charts of long loops stay bounded and true: the bucketed series of a loop
// far longer than the point budget reaches its last iteration, keeps every
// dollar and token, and keeps the best and worst scores inside each bucket.
import { beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { chartSeries } from "./chart-series";

const N = 1_234;
const POINTS = 100;

describeEachProvider("chart series", ({ db }) => {
  const loopId = "long-loop";
  const short = "short-loop";
  // A fork of the long loop at an iteration inside a bucket, holding the rest of its rows itself.
  const fork = "fork-of-long";
  const FORK_AT = 605;
  // Scores that wander, with one spike and one dip hidden mid-bucket.
  const score = (n: number) => (n === 777 ? 0.99 : n === 778 ? 0.01 : 0.3 + ((n * 37) % 100) / 500);
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

  it("buckets a long loop to the point budget, to its last iteration, with exact totals and extremes", async () => {
    const { points, bucketSize } = await chartSeries(db(), loopId, POINTS);
    expect(bucketSize).toBe(Math.ceil(N / POINTS));
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
    const spiked = points.find((p) => p.span!.from <= 777 && 777 <= p.span!.to)!;
    expect(spiked.span!.maxScore).toBeCloseTo(0.99, 9);
    expect(spiked.span!.minScore).toBeCloseTo(0.01, 9);
    // The point's own score is its last iteration's, last attempt.
    expect(points.at(-1)!.scores).toEqual({ tests: score(N) });
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
});
