import { describe, expect, it } from "vitest";
import { parseReport } from "./index";
import { parseLibtestLog } from "./libtest-log";

const section = (binary: string, lines: string[], exit: number) => [`# binary ${binary}`, ...lines, `# exit ${exit}`];

describe("libtest's per-binary logs, as the check's cargo runner writes them", () => {
  const table: {
    name: string;
    text: string[];
    tests: Record<string, string> | undefined;
    counts: { passed: number; failed: number; skipped: number; errored: number; complete: boolean };
    failures?: { name: string; message?: string }[];
    warn?: RegExp;
  }[] = [
    {
      name: "unit and integration binaries (metadata hash dropped), ignored with a reason, failed with a message",
      text: [
        ...section("calc-c93b59a92189d5d2", ["ok tests::it_works"], 0),
        ...section(
          "calc-4741c717b35d1012",
          [
            "ok adds",
            "ignored: slow on CI slow",
            "failed boom",
            "failed: panic did not contain expected string panics",
          ],
          101,
        ),
      ],
      tests: {
        "calc::tests::it_works": "passed",
        "calc::adds": "passed",
        "calc::slow": "skipped",
        "calc::boom": "failed",
        "calc::panics": "failed",
      },
      counts: { passed: 2, failed: 2, skipped: 1, errored: 0, complete: true },
      failures: [{ name: "calc::boom" }, { name: "calc::panics", message: "panic did not contain expected string" }],
    },
    {
      name: "a binary that exits nonzero with no failing test (process::exit, abort) is an error",
      text: section("calc-4741c717b35d1012", ["ok adds"], 134),
      tests: { "calc::adds": "passed" },
      counts: { passed: 1, failed: 0, skipped: 0, errored: 1, complete: true },
    },
    {
      name: "a harness = false binary (no log) counts as one test by its exit status",
      text: [
        ...section("fuzz-0123456789abcdef", ["# no log"], 0),
        ...section("golden-0123456789abcdef", ["# no log"], 1),
      ],
      tests: { fuzz: "passed", golden: "failed" },
      counts: { passed: 1, failed: 1, skipped: 0, errored: 0, complete: true },
    },
    {
      name: "doctests (rustdoc's rust_out programs, no log) are one entry, failed when any failed",
      text: [
        ...section("calc-c93b59a92189d5d2", ["ok tests::it_works"], 0),
        ...section("rust_out", ["# no log"], 0),
        ...section("rust_out", ["# no log"], 101),
      ],
      tests: { "calc::tests::it_works": "passed", doctests: "failed" },
      counts: { passed: 1, failed: 1, skipped: 0, errored: 0, complete: true },
      failures: [{ name: "doctests", message: "1 of 2 doctests failed" }],
    },
    {
      name: "a second line for one test (written by something other than the harness): the worse stands",
      text: section("calc-4741c717b35d1012", ["failed adds", "ok adds", "ok adds"], 101),
      tests: { "calc::adds": "failed" },
      counts: { passed: 0, failed: 1, skipped: 0, errored: 0, complete: true },
      warn: /calc::adds is reported more than once/,
    },
    {
      name: "a section cut off (the run was killed) is incomplete, and its results are not counted",
      text: [...section("a-0123456789abcdef", ["ok x"], 0), "# binary b-0123456789abcdef", "ok y"],
      tests: { "a::x": "passed" },
      counts: { passed: 1, failed: 0, skipped: 0, errored: 0, complete: false },
    },
    {
      name: "a benchmark's timing line passes",
      text: section("bench-0123456789abcdef", ["      1,234 ns/iter (+/- 56) sums"], 0),
      tests: { "bench::sums": "passed" },
      counts: { passed: 1, failed: 0, skipped: 0, errored: 0, complete: true },
    },
  ];
  for (const c of table) {
    it(c.name, () => {
      const r = parseLibtestLog(`${c.text.join("\n")}\n`)!;
      const { passed, failed, skipped, errored, complete } = r;
      expect({ passed, failed, skipped, errored, complete }).toEqual(c.counts);
      if (c.tests) expect(r.tests).toEqual(c.tests);
      if (c.failures) expect(r.failures).toEqual(c.failures);
      if (c.warn) expect(r.warnings.join("\n")).toMatch(c.warn);
      expect(r.format).toBe("libtest-log");
    });
  }

  it("an empty or foreign file is no report", () => {
    expect(parseLibtestLog("")).toBeNull();
    expect(parseReport("ok adds\n", "libtest-log")).toBeNull();
  });
});

describe("messages from cargo's output beside the log's outcomes", () => {
  it("a failing test gets its panic message and place; the outcome stays the log's", async () => {
    const { withOutputMessages } = await import("./libtest-log");
    const { parseSummary } = await import("./summary");
    const log = parseLibtestLog(
      `${section("calc-4741c717b35d1012", ["failed adds", "ok multiplies"], 101).join("\n")}\n`,
    )!;
    const output = parseSummary(
      [
        "test adds ... FAILED",
        "---- adds stdout ----",
        "thread 'adds' (7692) panicked at tests/calc.rs:3:5:",
        "assertion `left == right` failed",
        "  left: -1",
        " right: 5",
        "test result: FAILED. 5 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
      ].join("\n"),
      "cargo",
    );
    const r = withOutputMessages(log, output);
    expect(r.failures).toEqual([
      {
        name: "calc::adds",
        file: "tests/calc.rs:3:5",
        message: expect.stringContaining("assertion `left == right` failed"),
      },
    ]);
    expect(r.passed).toBe(1);
  });
});
