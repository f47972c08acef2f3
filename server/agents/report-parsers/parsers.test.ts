import { describe, expect, it } from "vitest";
import { parseGoJson } from "./go-json";
import { parseReport } from "./index";
import { parseJsonReport } from "./json";
import { parseJunit } from "./junit";
import { MAX_FAILURE_CHARS, MAX_FAILURES, ReportBuilder } from "./report";
import { parseSummary } from "./summary";
import { parseTap, TapCollector } from "./tap";

const counts = (r: ReturnType<typeof parseTap>) =>
  r && { passed: r.passed, failed: r.failed, skipped: r.skipped, errored: r.errored, complete: r.complete };

describe("TAP", () => {
  it("counts leaf tests of nested subtests, not the suites summarising them", () => {
    const tap = [
      "TAP version 13",
      "# Subtest: suite",
      "    # Subtest: inner",
      "        ok 1 - a",
      "        not ok 2 - b",
      "        1..2",
      "    not ok 1 - inner",
      "    ok 2 - c",
      "    1..2",
      "not ok 1 - suite",
      "ok 2 - d # SKIP later",
      "1..2",
    ].join("\n");
    const r = parseTap(tap)!;
    expect(counts(r)).toEqual({ passed: 2, failed: 1, skipped: 1, errored: 0, complete: true });
    expect(r.failures).toEqual([{ name: "suite > inner > b" }]);
  });

  it("a suite failing with all its tests passing (a hook) counts as an error", () => {
    const tap =
      "# Subtest: s\n    ok 1 - a\n    1..1\nnot ok 1 - s\n  ---\n  error: 'after hook failed'\n  ...\n1..1\n";
    const r = parseTap(tap)!;
    expect(counts(r)).toEqual({ passed: 1, failed: 0, skipped: 0, errored: 1, complete: true });
    expect(r.failures).toEqual([{ name: "s", message: "after hook failed" }]);
  });

  it("lines a test prints that look like results break the numbering and do not count", () => {
    const tap = "ok 1 - a\nok 2 - b\nok 1 - printed by a test\nnot ok 2 - printed too\nnot ok 3 - c\n1..3\n";
    const r = parseTap(tap)!;
    expect(counts(r)).toEqual({ passed: 2, failed: 1, skipped: 0, errored: 0, complete: true });
    expect(r.warnings).toEqual([
      "ignored 2 lines that looked like test results but broke the TAP numbering (test output)",
    ]);
  });

  it("a stream without a plan is incomplete; missing planned tests and a bail out are errors", () => {
    expect(parseTap("TAP version 13\nok 1 - a\nok 2 - b\n")!.complete).toBe(false);
    expect(counts(parseTap("1..4\nok 1\nnot ok 2\n"))).toEqual({
      passed: 1,
      failed: 1,
      skipped: 0,
      errored: 2,
      complete: true,
    });
    const bailed = parseTap("ok 1 - a\nBail out! database down\n")!;
    expect(bailed).toMatchObject({ complete: true, errored: 1 });
    expect(bailed.failures).toContainEqual({ name: "Bail out!", message: "database down" });
  });

  it("plain output is not TAP", () => {
    expect(parseTap("ok, nothing to see\nall good\n")).toBeNull();
  });

  it("streams: any number of chunks, the same result", () => {
    const c = new TapCollector();
    for (let i = 1; i <= 5000; i++) c.write(`ok ${i} - test ${i}\n`);
    c.write("1..5000\n");
    expect(counts(c.finish())).toEqual({ passed: 5000, failed: 0, skipped: 0, errored: 0, complete: true });
  });
});

describe("JUnit XML", () => {
  it("reads node's <testsuites> without <testsuite>, with a raw > in a passing test's name", () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
	<testcase name="returns x > 0" time="0.001" classname="test"/>
	<testcase name="b" time="0.001" classname="test"/>
	<testcase name="c" time="0.001" classname="test" failure="boom">
		<failure type="testCodeFailure" message="boom">Error: boom</failure>
	</testcase>
	<testcase name="d" classname="test"><skipped type="skipped" message="later"/></testcase>
</testsuites>`;
    const r = parseJunit(xml)!;
    expect(counts(r)).toEqual({ passed: 2, failed: 1, skipped: 1, errored: 0, complete: true });
    expect(r.failures).toEqual([{ name: "c", message: "boom" }]);
  });

  it("decodes numeric references and undoes node's double-escaped quotes only when the body proves it", () => {
    const xml = `<testsuite name="Mocha Tests"><testcase classname="s" name="&#xFC;n&#xEF;c&#xF6;d&#xE9;"><failure>x</failure></testcase>
<testcase name="q" classname="test"><failure message="say &amp;quot;hi&amp;quot;">[Error: say "hi"]</failure></testcase>
<testcase name="r" classname="test"><failure message="keeps &amp;quot; as typed">other text</failure></testcase></testsuite>`;
    const names = parseJunit(xml)!.failures;
    expect(names).toEqual([
      { name: "s > ünïcödé", message: "x" },
      { name: "q", message: 'say "hi"' },
      { name: "r", message: "keeps &quot; as typed" },
    ]);
  });

  it("log lines around the XML are ignored; a cut-off document is incomplete", () => {
    const xml = 'ok 1 - logged\n<testsuite name="t"><testcase name="a"/></testsuite>\ncoverage table';
    expect(counts(parseJunit(xml))).toMatchObject({ passed: 1, complete: true });
    const cut = parseJunit('<testsuites><testsuite name="t"><testcase name="a"/><testcase name="b"')!;
    expect(cut.complete).toBe(false);
    expect(cut.warnings).toEqual(["the JUnit XML is incomplete or malformed"]);
  });

  it("suite totals when no test cases are listed; <error> alone is an error", () => {
    expect(counts(parseJunit('<testsuite tests="5" failures="1" errors="1" skipped="1"></testsuite>'))).toEqual({
      passed: 2,
      failed: 2,
      skipped: 1,
      errored: 0,
      complete: true,
    });
    const r = parseJunit(
      '<testsuite><testcase classname="tests.test_x" name="tests.test_x"><error message="collection failure"/></testcase></testsuite>',
    )!;
    expect(counts(r)).toMatchObject({ failed: 0, errored: 1 });
  });
});

describe("JSON reports", () => {
  const jest = {
    numTotalTests: 3,
    numPassedTests: 1,
    numFailedTests: 1,
    testResults: [
      {
        name: "/repo/src/a.test.ts",
        status: "failed",
        assertionResults: [
          { ancestorTitles: ["math"], title: "adds", status: "passed", failureMessages: [] },
          {
            ancestorTitles: ["math"],
            title: "divides",
            status: "failed",
            failureMessages: ["Error: expected 2\n    at x (a.ts:1:1)"],
          },
          { ancestorTitles: [], title: "later", status: "todo", failureMessages: [] },
        ],
      },
      {
        name: "/repo/src/broken.test.ts",
        status: "failed",
        message: "SyntaxError: Unexpected token",
        assertionResults: [],
      },
    ],
  };

  it("vitest/jest: tests by status, a file that did not load is an error; text before and after is fine", () => {
    const text = `console output\n${JSON.stringify(jest)}\n % Coverage report from v8\nAll files | 100 |\n`;
    const r = parseJsonReport(text, "/repo")!;
    expect(counts(r)).toEqual({ passed: 1, failed: 1, skipped: 1, errored: 1, complete: true });
    expect(r.failures).toEqual([
      { name: "math > divides", file: "src/a.test.ts", message: "Error: expected 2" },
      { name: "src/broken.test.ts", file: "src/broken.test.ts", message: "SyntaxError: Unexpected token" },
    ]);
  });

  it("mocha: stats and lists; a hook failure is an error", () => {
    const mocha = {
      stats: { tests: 3, passes: 1, pending: 1, failures: 2 },
      passes: [{ title: "a" }],
      pending: [{ title: "b" }],
      failures: [
        { fullTitle: "s c", file: "/repo/t.js", err: { message: "nope" } },
        { fullTitle: 's "before all" hook for "d"', err: { message: "db down" } },
      ],
    };
    const r = parseJsonReport(`${JSON.stringify(mocha, null, 2)}\n`, "/repo")!;
    expect(counts(r)).toEqual({ passed: 1, failed: 1, skipped: 1, errored: 1, complete: true });
    expect(r.source).toBe("mocha");
  });

  it("a report cut short is incomplete; logged objects are not reports", () => {
    const cut = JSON.stringify(jest).slice(0, 120);
    expect(parseJsonReport(cut)).toMatchObject({
      complete: false,
      warnings: ["the JSON report ends before it is complete"],
    });
    expect(parseJsonReport('{"user":"x"}\n{"level":"info"}\n')).toBeNull();
  });
});

describe("go test -json", () => {
  const ev = (Action: string, Test?: string, Output?: string) => JSON.stringify({ Action, Package: "p", Test, Output });
  it("counts leaf tests; a package failing without a failing test is an error", () => {
    const stream = [
      ev("run", "TestA"),
      ev("run", "TestA/one"),
      ev("output", "TestA/one", "    a_test.go:9: want 2\n"),
      ev("fail", "TestA/one"),
      ev("pass", "TestA/two"),
      ev("fail", "TestA"),
      ev("skip", "TestB"),
      ev("fail"),
      "not json",
    ].join("\n");
    const r = parseGoJson(stream)!;
    expect(counts(r)).toEqual({ passed: 1, failed: 1, skipped: 1, errored: 0, complete: true });
    expect(r.failures).toEqual([{ name: "TestA/one", file: "a_test.go:9", message: "want 2" }]);
    const broken = parseGoJson([ev("output", undefined, "FAIL\tp [build failed]\n"), ev("fail")].join("\n"))!;
    expect(counts(broken)).toMatchObject({ errored: 1, complete: true });
    expect(parseGoJson(ev("run", "TestA"))!.complete).toBe(false);
  });
});

describe("summary lines", () => {
  it("pytest -q, cargo over several test binaries, jest and vitest with files that did not load", () => {
    expect(counts(parseSummary("..F\n1 failed, 2 passed, 1 xfailed in 0.12s\n"))).toMatchObject({
      passed: 2,
      failed: 1,
      skipped: 1,
    });
    const cargo =
      "test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out\ntest result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out\n";
    expect(counts(parseSummary(cargo))).toMatchObject({ passed: 4, failed: 2, skipped: 1 });
    const jest =
      "FAIL ./a.test.js\n  ● Test suite failed to run\n\n    SyntaxError: nope\n\nTest Suites: 1 failed, 1 total\nTests:       0 total\n";
    const j = parseSummary(jest)!;
    expect(counts(j)).toMatchObject({ passed: 0, errored: 1 });
    expect(j.failures).toEqual([{ name: "a.test.js", file: "a.test.js", message: "SyntaxError: nope" }]);
    const vitest =
      " FAIL  a.spec.js [ a.spec.js ]\nError: Parse failure\n Test Files  1 failed (1)\n      Tests  no tests\n";
    expect(counts(parseSummary(vitest))).toMatchObject({ errored: 1 });
  });

  it("the detected runner's dialect wins; unknown output is no report", () => {
    const both = "  2 passing (5ms)\n==== 1 failed, 1 passed in 0.1s ====\n";
    expect(parseSummary(both, "mocha")!.source).toBe("mocha");
    expect(parseSummary(both, "pytest")!.source).toBe("pytest");
    expect(parseSummary("compiling...\ndone\n")).toBeNull();
    expect(parseReport("ok then\nall good", "auto")).toBeNull();
  });
});

describe("caps", () => {
  it("keeps at most 20 failures and 4,000 characters, and counts the rest", () => {
    const b = new ReportBuilder();
    for (let i = 0; i < 25; i++) b.fail({ name: `t${i}`, message: "m" });
    expect(b.build("tap", true)).toMatchObject({ failed: 25, moreFailures: 25 - MAX_FAILURES });
    const long = new ReportBuilder();
    for (let i = 0; i < 10; i++) long.fail({ name: `t${i}`, message: "x".repeat(500) });
    const r = long.build("tap", true);
    expect(r.failures.reduce((n, f) => n + f.name.length + (f.message?.length ?? 0), 0)).toBeLessThanOrEqual(
      MAX_FAILURE_CHARS,
    );
    expect(r.failures.length + r.moreFailures).toBe(10);
  });
});
