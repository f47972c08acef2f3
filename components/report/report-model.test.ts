import { describe, expect, it } from "vitest";
import { point } from "@/lib/charts/fixtures";
import { iterationLines, reportMarkdown, summaryRows, type ReportInput } from "./report-model";

const input: ReportInput = {
  loop: {
    name: "Docs | v2",
    goal: "Write the docs",
    agentKind: "demo",
    status: "completed",
    stopType: "score_threshold",
    stopReason: "Mean score 0.960 >= 0.95",
    iteration: 2,
    maxIterations: 10,
    costUsd: 0.0123,
    budgetUsd: 1,
    tokensIn: 1000,
    tokensOut: 500,
    tokensCache: 0,
    bestScore: 0.96,
    lastScore: 0.96,
  },
  report: { durationMs: 65_000, successRate: 1, success: true, failure: false, finalMeanScore: 0.96, efficiency: { cacheHitRate: 0.25, costPerCall: 0.006, tokensPerToolCall: null } },
  series: [
    point(1, { meanScore: 0.5, scores: { coverage: 0.5 }, costUsd: 0.005, tokensIn: 400, claimedDone: true }),
    point(2, { meanScore: 0.96, scores: { coverage: 0.96 }, costUsd: 0.0073, evidenceComplete: true, claimedDone: true, handoffTrigger: "explicit_request" }),
  ],
};

describe("report model", () => {
  it("states the summary an operator asked for", () => {
    const rows = Object.fromEntries(summaryRows(input));
    expect(rows).toMatchObject({
      "Stop type": "score threshold reached (score_threshold)",
      Iterations: "2 of at most 10",
      "Final score": "0.96",
      "Total cost": "$0.01 of a $1.00 budget",
      Tokens: "1.5k (1.0k in, 500 out, 0 cache)",
      Duration: "1 min 05 s",
    });
  });

  it("flags claims without evidence in the iteration lines", () => {
    expect(iterationLines(input.series).map((l) => [l.number, l.claim, l.handoff])).toEqual([
      [1, "said done, evidence says no", ""],
      [2, "done (evidence agrees)", "explicit request"],
    ]);
  });

  it("renders Markdown with escaped table cells and the final output", () => {
    const md = reportMarkdown(input, { number: 2, status: "succeeded", output: "line\n```code```", claimedDone: true, evidenceComplete: true }, new Date(Date.UTC(2026, 0, 1)));
    expect(md).toContain("# Docs \\| v2");
    expect(md).toContain("| Stop reason | Mean score 0.960 >= 0.95 |");
    expect(md).toContain("| 1 | succeeded | 0.50 | coverage 0.50 | said done, evidence says no |");
    expect(md).toContain("- Cache hit rate: 25%");
    expect(md).toContain("### Final output (iteration 2, succeeded)");
    expect(md).not.toContain("```code```");
  });
});
