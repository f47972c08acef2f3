import { describe, expect, it } from "vitest";
import { point, scored } from "../../test/chart-fixtures";
import { handoffIterations, prepareScoreChart, scorerKey, summarizeHandoffs } from "./score-chart";
import { lastAttempts } from "./types";

describe("prepareScoreChart", () => {
  it("has one key per scorer, the mean and the best-so-far envelope", () => {
    const chart = prepareScoreChart([
      point(1, { scores: { tests: 0.2, coverage: 0.4 }, meanScore: 0.3 }),
      point(2, { scores: { tests: 0.6 }, meanScore: 0.6 }),
      point(3, { scores: { tests: 0.5, coverage: 0.3 }, meanScore: 0.4 }),
    ]);
    expect(chart.scorers).toEqual(["coverage", "tests"]);
    expect(chart.rows.map((r) => r.best)).toEqual([0.3, 0.6, 0.6]);
    expect(chart.rows[1]![scorerKey("coverage")]).toBeNull();
    expect(chart.rows[2]![scorerKey("tests")]).toBe(0.5);
  });

  it("keeps the best through an iteration that did not score", () => {
    const chart = prepareScoreChart([scored(1, 0.5), point(2, { status: "error" }), scored(3, 0.4)]);
    expect(chart.rows.map((r) => [r.mean, r.best])).toEqual([
      [0.5, 0.5],
      [null, 0.5],
      [0.4, 0.5],
    ]);
  });

  it("takes a bucketed point's best from its whole span, not only its last iteration", () => {
    const span = (from: number, to: number, maxScore: number) => ({
      span: { from, to, attempts: to - from + 1, failures: 0, handoffs: 0, minScore: 0.1, maxScore },
    });
    const chart = prepareScoreChart([
      { ...scored(10, 0.4), ...span(1, 10, 0.6) },
      { ...scored(20, 0.5), ...span(11, 20, 0.9) },
    ]);
    expect(chart.rows.map((r) => [r.mean, r.best])).toEqual([
      [0.4, 0.6],
      [0.5, 0.9],
    ]);
  });

  it("marks a plateau once, when no new best has come for the configured run", () => {
    const means = [0.3, 0.5, 0.5, 0.502, 0.49, 0.45, 0.5];
    const chart = prepareScoreChart(
      means.map((m, i) => scored(i + 1, m)),
      { plateauAfter: 3 },
    );
    const plateaus = chart.markers.filter((m) => m.kind === "plateau");
    expect(plateaus.map((m) => m.iteration)).toEqual([5]);
  });

  it("marks a regression when the mean drops by the threshold or more", () => {
    const chart = prepareScoreChart([scored(1, 0.8), scored(2, 0.65), scored(3, 0.74), scored(4, 0.5)], {
      regressionDrop: 0.15,
    });
    expect(chart.markers.filter((m) => m.kind === "regression").map((m) => m.iteration)).toEqual([2, 4]);
    expect(chart.markers.find((m) => m.iteration === 4 && m.kind === "regression")?.label).toBe(
      "mean fell 0.74 → 0.50",
    );
  });

  it("treats a 0 threshold as off and keeps a positive one", () => {
    expect(prepareScoreChart([], { threshold: 0 }).threshold).toBeNull();
    expect(prepareScoreChart([], { threshold: 0.9 }).threshold).toBe(0.9);
  });

  it("uses only the last attempt of a re-run iteration", () => {
    const chart = prepareScoreChart([
      scored(1, 0.2),
      scored(2, 0.1, { attempt: 1, status: "interrupted" }),
      scored(2, 0.7, { attempt: 2 }),
    ]);
    expect(chart.rows.map((r) => r.mean)).toEqual([0.2, 0.7]);
  });
});

describe("handoffs", () => {
  const series = [
    scored(1, 0.3),
    scored(2, 0.5, { handoffTrigger: "explicit_request" }),
    scored(3, 0.7),
    scored(4, 0.6, { handoffTrigger: "context_threshold" }),
  ];

  it("lists the iterations after which a fresh context started", () => {
    expect(handoffIterations(series)).toEqual([2, 4]);
    expect(prepareScoreChart(series).handoffs).toEqual([2, 4]);
  });

  it("gives the score before and after each fresh context", () => {
    expect(summarizeHandoffs(series)).toEqual([
      { afterIteration: 2, trigger: "explicit_request", before: 0.5, after: 0.7 },
      { afterIteration: 4, trigger: "context_threshold", before: 0.6, after: null },
    ]);
  });
});

describe("handoffs from events", () => {
  const series = [scored(1, 0.3), scored(2, 0.5), scored(3, 0.7)];
  const forced = {
    id: 9,
    type: "handoff",
    payload: { iteration: 2, trigger: "explicit_request" },
    reason: "operator",
    actor: "ops",
    createdAt: new Date(0),
  };

  it("adds operator-forced handoffs that only exist as events", () => {
    expect(handoffIterations(series, [forced])).toEqual([2]);
    expect(summarizeHandoffs(series, [forced])).toEqual([
      { afterIteration: 2, trigger: "explicit_request", before: 0.5, after: 0.7 },
    ]);
    expect(prepareScoreChart(series, { events: [forced] }).handoffs).toEqual([2]);
  });

  it("does not count a handoff twice when the record carries it too", () => {
    const both = [scored(1, 0.3), scored(2, 0.5, { handoffTrigger: "context_threshold" }), scored(3, 0.7)];
    expect(summarizeHandoffs(both, [forced]).map((h) => h.trigger)).toEqual(["context_threshold"]);
  });
});

describe("lastAttempts", () => {
  it("sorts by number and keeps the highest attempt", () => {
    const out = lastAttempts([point(3), point(1, { attempt: 2 }), point(1, { attempt: 1 })]);
    expect(out.map((p) => [p.number, p.attempt])).toEqual([
      [1, 2],
      [3, 1],
    ]);
  });
});
