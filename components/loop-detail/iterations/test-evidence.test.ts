import { describe, expect, it } from "vitest";
import { checksWithEvidence, evidenceSummary, shortTestName, type TestEvidenceView } from "./test-evidence";

const evidence = (over: Partial<TestEvidenceView> = {}): TestEvidenceView => ({
  passed: 4,
  failed: 3,
  skipped: 1,
  errored: 0,
  failures: [
    { name: "calculator > edge cases > plain failure" },
    { name: "strings > ünïcödé 名前 fails" },
    { name: "strings > special chars in the message" },
  ],
  moreFailures: 0,
  format: "json",
  runner: "vitest",
  counted: true,
  exitCode: 1,
  warnings: [],
  ...over,
});

describe("test evidence in the timeline", () => {
  it("summarises failures by their short names", () => {
    expect(evidenceSummary(evidence())).toBe("3 failed: plain failure, ünïcödé 名前 fails, special chars…");
    expect(evidenceSummary(evidence({ failed: 25, moreFailures: 22 }))).toBe(
      "25 failed: plain failure, ünïcödé 名前 fails, special chars… +22",
    );
    expect(evidenceSummary(evidence({ failed: 0, failures: [], passed: 7 }))).toBe("7 passed, 1 skipped");
    expect(evidenceSummary(evidence({ counted: false, failures: [], error: "\nSyntaxError: Unexpected token" }))).toBe(
      "no test report: SyntaxError: Unexpected token",
    );
    expect(shortTestName("a > a-very-long-name-without-spaces")).toBe("a-very-long-name…");
  });

  it("reads the evidence stored beside each score, ignoring scores without it", () => {
    const scores = { tests: { score: 4 / 7, reason: "4/7", tests: evidence() }, keywords: { score: 1, reason: null } };
    expect(checksWithEvidence(scores).map((c) => [c.check, c.score])).toEqual([["tests", 4 / 7]]);
    expect(checksWithEvidence(null)).toEqual([]);
  });
});
