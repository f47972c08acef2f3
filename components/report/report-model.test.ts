import { describe, expect, it } from "vitest";
import { point } from "@/test/chart-fixtures";
import {
  iterationLines,
  limitRows,
  reportMarkdown,
  runsWithoutEvidence,
  successLine,
  summaryRows,
  type ReportInput,
} from "./report-model";

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
    costPerVerifiedUsd: 0.0123,
    budgetUsd: 1,
    tokensIn: 1000,
    tokensOut: 500,
    tokensCache: 0,
    bestScore: 0.96,
    lastScore: 0.96,
  },
  report: {
    durationMs: 65_000,
    successRate: 1,
    success: true,
    failure: false,
    finalMeanScore: 0.96,
    efficiency: { cacheHitRate: 0.25, costPerCall: 0.006, tokensPerToolCall: null },
  },
  series: [
    point(1, { meanScore: 0.5, scores: { coverage: 0.5 }, costUsd: 0.005, tokensIn: 400, claimedDone: true }),
    point(2, {
      meanScore: 0.96,
      scores: { coverage: 0.96 },
      costUsd: 0.0073,
      evidenceComplete: true,
      claimedDone: true,
      handoffTrigger: "explicit_request",
    }),
  ],
};

describe("a loop with no evidence source", () => {
  it("is labelled in the summary, the page and the Markdown export", () => {
    expect(runsWithoutEvidence({ completion: { allowNoEvidence: true } })).toBe(true);
    expect(runsWithoutEvidence({ completion: { allowNoEvidence: false } })).toBe(false);
    expect(runsWithoutEvidence(null)).toBe(false);
    const rows = Object.fromEntries(summaryRows({ ...input, noEvidence: true }));
    expect(rows.Completion).toBe("can never complete; stops on limits (no evidence source)");
    expect(Object.fromEntries(summaryRows(input)).Completion).toBeUndefined();
    expect(reportMarkdown({ ...input, noEvidence: true }, null, new Date(0))).toContain(
      "| Completion | can never complete; stops on limits \\(no evidence source\\) |",
    );
  });
});

describe("report model", () => {
  it("states the summary an operator asked for", () => {
    const rows = Object.fromEntries(summaryRows(input));
    expect(rows).toMatchObject({
      "Stop type": "score threshold reached (score_threshold)",
      Iterations: "2 of at most 10",
      "Final score": "0.96",
      "Total cost": "$0.0123 of a $1.00 budget",
      "Cost per verified task": "$0.0123",
      Tokens: "1.5k (1.0k in, 500 out, 0 cache)",
      Duration: "1 min 05 s",
    });
  });

  it("says there is no verified task when the loop did not complete", () => {
    const rows = Object.fromEntries(summaryRows({ ...input, loop: { ...input.loop, costPerVerifiedUsd: null } }));
    expect(rows["Cost per verified task"]).toBe("no verified task");
  });

  it("flags claims without evidence in the iteration lines", () => {
    expect(iterationLines(input.series).map((l) => [l.number, l.claim, l.handoff])).toEqual([
      [1, "said done, evidence says no", ""],
      [2, "done (evidence agrees)", "explicit request"],
    ]);
  });

  it("renders Markdown with escaped table cells and the final output", () => {
    const md = reportMarkdown(
      input,
      { number: 2, status: "succeeded", output: "line\n```code```", claimedDone: true, evidenceComplete: true },
      new Date(Date.UTC(2026, 0, 1)),
    );
    expect(md).toContain("# Docs \\| v2");
    expect(md).toContain("| Stop reason | Mean score 0.960 \\>= 0.95 |");
    expect(md).toContain("| 1 | succeeded | 0.50 | coverage 0.50 | said done, evidence says no |");
    expect(md).toContain("- Cache hit rate: 25%");
    expect(md).toContain("### Final output (iteration 2, succeeded)");
    // The output is kept as printed, inside a fence longer than any backtick run in it.
    expect(md).toContain("````\nline\n```code```\n````\n");
  });

  it("keeps user text inert: no links, images, raw HTML or autolinks, and output cannot leave its fence", () => {
    const hostile = {
      ...input,
      loop: {
        ...input.loop,
        name: "[click](https://evil.example) ![x](http://t.example/p.png) <img src=x onerror=alert(1)>",
        stopReason: "see www.evil.example\n# Fake heading | *bold* `code` &amp;",
      },
    };
    const output = "done\n```\n</pre><script>alert(1)</script>\n[link](https://evil.example)\n````` more";
    const md = reportMarkdown(
      hostile,
      { number: 2, status: "succeeded", output, claimedDone: true, evidenceComplete: true },
      new Date(0),
    );
    const [before, fenced] = md.split("### Final output");
    expect(before).not.toMatch(/(?<!\\)[[<]|(?<!\\)!|https?:\/\/|www\.evil/);
    expect(before).toContain("\\[click\\]\\(https\\://evil.example\\)");
    expect(before).toContain("see www\\.evil.example \\# Fake heading \\| \\*bold\\* \\`code\\` \\&amp;");
    // A six-backtick fence: the output's five-backtick run and its ``` line cannot close it.
    expect(fenced).toContain(`\n\`\`\`\`\`\`\n${output}\n\`\`\`\`\`\`\n`);
  });

  it.each<[string, Record<string, number> | undefined, string | null]>([
    [
      "an interrupted run is counted as such, not as 100%",
      { succeeded: 1, interrupted: 1 },
      "Agent runs that succeeded: 50% (1 of 2 runs; 1 interrupted)",
    ],
    [
      "every kind named",
      { succeeded: 3, failed: 1, rate_limited: 1, error: 1 },
      "Agent runs that succeeded: 50% (3 of 6 runs; 1 failed; 1 error; 1 stopped by a usage limit)",
    ],
    ["all good", { succeeded: 2 }, "Agent runs that succeeded: 100% (2 of 2 runs)"],
    ["no stored counts: the engine's rate", undefined, "Agent runs that succeeded: 100%"],
  ])("success line: %s", (_name, outcomes, text) => {
    expect(successLine({ report: input.report, outcomes })).toBe(text);
  });

  it("says the goal is not met when every run succeeded but the loop stopped short of it (issue 31)", () => {
    const stopped = { ...input.report!, success: false };
    expect(successLine({ report: stopped, outcomes: { succeeded: 4 } })).toBe(
      "Agent runs that succeeded: 100% (4 of 4 runs); the goal is not met",
    );
  });

  it("limits in effect, edited ones marked with what they were", () => {
    const limits = [
      { label: "Max iterations", value: 40, original: 80, edited: true },
      { label: "Cost limit (USD)", value: 0.015, original: 0.015, edited: false },
      { label: "Budget (USD)", value: 2.5, original: 0, edited: true },
      { label: "Time limit (s)", value: 0, original: 0, edited: false },
    ];
    expect(limitRows(limits)).toEqual([
      ["Max iterations", "40 (edited; was 80)"],
      ["Cost limit (USD)", "$0.015"].map((v, i) => (i === 1 ? expect.stringMatching(/^\$0\.015?0?$/) : v)),
      ["Budget (USD)", expect.stringMatching(/^\$2\.50 \(edited; was off\)$/)],
      ["Time limit (s)", "off"],
    ]);
    const md = reportMarkdown({ ...input, limits, outcomes: { succeeded: 1, interrupted: 1 } }, null, new Date(0));
    expect(md).toContain("## Limits in effect");
    expect(md).toContain("| Max iterations | 40 \\(edited; was 80\\) |");
    expect(md).toContain("- Agent runs that succeeded: 50% (1 of 2 runs; 1 interrupted)");
  });
});
