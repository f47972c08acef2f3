/**
 * `go test -json`: an event stream, one JSON object per line, read line by
 * line so any size streams through. Counts leaf tests (a test with subtests
 * only summarises them); a package that fails without a failing test (a build
 * error, a panic, TestMain) counts as an error.
 */
import type { FailingTest } from "../../engine";
import { firstLines, ReportBuilder, type ParsedReport } from "./report";

interface GoEvent {
  Action?: string;
  Package?: string;
  Test?: string;
  Output?: string;
}

interface TestState {
  result: "pass" | "fail" | "skip" | null;
  output: string[];
}

interface PackageState {
  result: "pass" | "fail" | "skip" | null;
  output: string[];
  tests: Map<string, TestState>;
}

const KEEP_LINES = 8;
const FRAMING = /^\s*(=== (RUN|PAUSE|CONT|NAME)|--- (PASS|FAIL|SKIP)|PASS$|FAIL$|ok\s|FAIL\s)/;

/** "    sample_test.go:26: expected 2, got 1" → where and why. */
function failureFrom(name: string, output: string[]): FailingTest {
  const test: FailingTest = { name };
  const lines = output.map((l) => l.trimEnd()).filter((l) => l.trim() !== "" && !FRAMING.test(l));
  const located = lines.map((l) => /^\s*([\w./-]+\.go:\d+): (.*)$/.exec(l)).find((m) => m !== null);
  if (located) test.file = located[1]!;
  const message = firstLines(
    located ? [located[2], ...lines.slice(lines.indexOf(located.input) + 1)].join("\n") : lines.join("\n"),
  );
  if (message) test.message = message;
  return test;
}

export class GoJsonCollector {
  private readonly packages = new Map<string, PackageState>();
  private events = 0;

  line(raw: string) {
    if (!raw.startsWith("{")) return;
    let ev: GoEvent;
    try {
      ev = JSON.parse(raw) as GoEvent;
    } catch {
      return;
    }
    if (typeof ev.Action !== "string" || typeof ev.Package !== "string") return;
    this.events++;
    let pkg = this.packages.get(ev.Package);
    if (!pkg) {
      pkg = { result: null, output: [], tests: new Map() };
      this.packages.set(ev.Package, pkg);
    }
    const done = ev.Action === "pass" || ev.Action === "fail" || ev.Action === "skip" ? ev.Action : null;
    if (ev.Test === undefined) {
      if (done) pkg.result = done;
      else if (ev.Action === "output" && ev.Output && pkg.output.length < KEEP_LINES) pkg.output.push(ev.Output);
      return;
    }
    let test = pkg.tests.get(ev.Test);
    if (!test) {
      test = { result: null, output: [] };
      pkg.tests.set(ev.Test, test);
    }
    if (done) {
      test.result = done;
      if (done !== "fail") test.output = []; // only failures need their output
    } else if (ev.Action === "output" && ev.Output && test.output.length < KEEP_LINES) test.output.push(ev.Output);
  }

  finish(): ParsedReport | null {
    if (this.events === 0) return null;
    const b = new ReportBuilder();
    let complete = true;
    for (const [name, pkg] of this.packages) {
      if (pkg.result === null) complete = false;
      const ancestors = (test: string) => {
        const parts = test.split("/");
        return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("/"));
      };
      const parents = new Set<string>();
      const failingParents = new Set<string>();
      for (const [test, state] of pkg.tests) {
        const failing = state.result !== "pass" && state.result !== "skip";
        for (const a of ancestors(test)) {
          parents.add(a);
          if (failing) failingParents.add(a);
        }
      }
      let bad = 0;
      for (const [test, state] of pkg.tests) {
        if (parents.has(test)) {
          // A parent that failed although none of its subtests did failed on its own.
          if (state.result === "fail" && !failingParents.has(test)) {
            bad++;
            b.error(failureFrom(test, state.output));
          }
          continue;
        }
        b.outcome(
          `${name}::${test}`,
          state.result === "pass"
            ? "passed"
            : state.result === "skip"
              ? "skipped"
              : state.result === "fail"
                ? "failed"
                : "errored",
        );
        if (state.result === "pass") b.pass();
        else if (state.result === "skip") b.skip();
        else {
          bad++;
          const failure = failureFrom(test, state.output);
          if (state.result === "fail") b.fail(failure);
          else b.error({ ...failure, message: failure.message ?? "did not finish (the test binary stopped)" });
        }
      }
      if (pkg.result === "fail" && bad === 0) {
        const message = firstLines(pkg.output.join(""), 4);
        b.error({ name: `package ${name}`, ...(message ? { message } : {}) });
      }
    }
    if (!complete) b.warn("the go test event stream ended before every package finished");
    return b.build("go-json", complete, "go");
  }
}

export function parseGoJson(text: string): ParsedReport | null {
  const c = new GoJsonCollector();
  for (const line of text.split("\n")) c.line(line);
  return c.finish();
}
