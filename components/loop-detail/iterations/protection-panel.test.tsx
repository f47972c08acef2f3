// The loop page's list of protected evidence: each entry with its kind and reason, the operator's removals and
// the baseline of each check.
import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { ProtectionList } from "./protection-panel";

it("lists what is protected and why, and the baselines", () => {
  const html = renderToStaticMarkup(
    <ProtectionList
      p={{
        recorded: true,
        deriveFromChecks: true,
        unprotected: ["fixtures/**"],
        baselineSha: "abcdef0123456789",
        entries: [{ glob: "package.json", kind: "check", why: 'check "tests" runs its test script' }],
        baselines: [
          { check: "tests", perTest: true, targets: 2, kept: 45, ran: 47, skipped: 1, note: null },
          { check: "smoke", perTest: false, targets: 0, kept: 0, ran: 0, skipped: 0, note: "no known runner" },
        ],
      }}
    />,
  );
  expect(html).toContain("package.json</td><td");
  expect(html).toContain("check &quot;tests&quot; runs its test script");
  expect(html).toContain("Removed by the operator: fixtures/**");
  expect(html).toContain("Baseline of tests at abcdef012345: 2 targets, 45 to keep, 47 ran, 1 skipped");
  expect(html).toContain("Baseline of smoke at abcdef012345: exit-code grading, 0 ran, 0 skipped (no known runner)");
});
