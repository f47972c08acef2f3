// The iteration's test evidence shows the grading: one verdict line per requirement (✓/✗) and what the agent
// tampered with, from the shape the graded check stores with its score.
import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { checksWithEvidence } from "./test-evidence";
import { TestEvidencePanel } from "./test-evidence-panel";

it("lists the verdict lines and the tampering of a graded check", () => {
  const checks = checksWithEvidence({
    tests: {
      score: 0,
      reason: "evidence_tampered: 0 of 2 targets pass",
      tests: {
        ...{ passed: 2, failed: 2, skipped: 0, errored: 0, failures: [], moreFailures: 0, format: "tap" },
        ...{ runner: "node-test", counted: true, exitCode: 1, warnings: [] },
        grading: {
          sha: "0123456789abcdef",
          mode: "per-test",
          notGraded: ["test/new.test.js"],
          lines: [
            { ok: false, text: "0 of 2 targets pass" },
            { ok: true, text: "2 of 2 kept" },
            { ok: false, text: "tampering: test/math.test.js" },
          ],
          tampering: [{ what: "test/math.test.js", how: "protected file changed or deleted" }],
        },
      },
    },
  });
  const html = renderToStaticMarkup(<TestEvidencePanel checks={checks} iteration={3} />);
  expect(html).toContain("✗ 0 of 2 targets pass");
  expect(html).toContain("✓ 2 of 2 kept");
  expect(html).toContain("Graded on a clean tree of 0123456789ab (per test, against the baseline)");
  expect(html).toContain("new tests not graded: test/new.test.js");
  expect(html).toMatch(/⚑ <span[^>]*>test\/math\.test\.js<\/span>: protected file changed or deleted/);
});
