/**
 * `cargo test`'s per-test report. Stable Rust has no machine-readable test
 * output, but libtest (the harness of every `#[test]` binary) writes one line
 * per test to `--logfile`: "ok NAME", "failed NAME", "failed: MESSAGE NAME",
 * "ignored NAME", "ignored: REASON NAME". The check runs each test binary
 * through its own cargo runner (see test-runners/cargo-runner.ts), which
 * appends that log under a header naming the binary and, after it, the
 * binary's exit status:
 *
 *   # binary calc-4741c717b35d1012
 *   ok adds
 *   # exit 0
 *
 * A binary that wrote no log (a `harness = false` target) says `# no log`
 * and counts as one test, passed or failed by its exit status. Doctests
 * (rustdoc builds each as a `rust_out` program without libtest, and cargo
 * runs it through the runner too) cannot be told apart by name: they are one
 * entry, "doctests", failed when any of them failed.
 */
import { MAX_FAILURE_CHARS, ReportBuilder, type ParsedReport } from "./report";

/** Cargo names test binaries `<target>-<16 hex digits of metadata>`: the target is the stable part. */
const targetOf = (binary: string) => binary.replace(/-[0-9a-f]{16}$/, "");

type Result = { outcome: "passed" | "failed" | "skipped"; message?: string };

interface Binary {
  target: string;
  logged: boolean;
  results: Map<string, Result>;
}

/** The name rustdoc gives every doctest program. */
const DOCTEST = "rust_out";

const RANK = { skipped: 0, passed: 1, failed: 2 } as const;

function entry(b: ReportBuilder, bin: Binary, line: string) {
  // Test names are Rust paths (no spaces); a message or reason sits between the result and the name.
  const m = /^(ok|failed|ignored)\b(.*?)\s+(\S+)$/.exec(line) ?? /^(\s*[\d,.]+ ns\/iter.*?)\s+(\S+)$/.exec(line);
  if (!m) {
    b.warn(`an unreadable line in libtest's log of ${bin.target}: ${line.slice(0, 80)}`);
    return;
  }
  const name = m[m.length - 1]!;
  const message = m[1] === "failed" ? (m[2] ?? "").replace(/^:\s*/, "").trim() : "";
  // "ok", or a benchmark's timing line: it ran and passed.
  const result: Result = {
    outcome: m[1] === "failed" ? "failed" : m[1] === "ignored" ? "skipped" : "passed",
    ...(message ? { message: message.slice(0, 500) } : {}),
  };
  const earlier = bin.results.get(name);
  if (earlier) {
    // libtest reports a test once: a second line was written by something else, and the worse one stands.
    b.warn(`${bin.target}::${name} is reported more than once in libtest's log`);
    if (RANK[earlier.outcome] >= RANK[result.outcome]) return;
  }
  bin.results.set(name, result);
}

interface Doctests {
  runs: number;
  failed: number;
}

function finish(b: ReportBuilder, bin: Binary, code: string, doctests: Doctests) {
  const exit = Number(code);
  if (!bin.logged && bin.target === DOCTEST) {
    doctests.runs++;
    if (exit !== 0) doctests.failed++;
    return;
  }
  if (!bin.logged) {
    b.outcome(bin.target, exit === 0 ? "passed" : "failed");
    if (exit === 0) b.pass();
    else b.fail({ name: bin.target, message: `test binary without a libtest log exited with ${code}` });
    return;
  }
  let failed = 0;
  for (const [name, r] of bin.results) {
    const id = `${bin.target}::${name}`;
    b.outcome(id, r.outcome);
    if (r.outcome === "passed") b.pass();
    else if (r.outcome === "skipped") b.skip();
    else {
      failed++;
      b.fail({ name: id, ...(r.message ? { message: r.message } : {}) });
    }
  }
  if (exit !== 0 && failed === 0) {
    // It stopped on its own (a crash, process::exit, an abort): what it did not report is missing.
    b.error({
      name: bin.target,
      message: `the test binary exited with ${code} after ${bin.results.size} result(s) without a failing test`,
    });
  }
}

export function parseLibtestLog(text: string): ParsedReport | null {
  const b = new ReportBuilder();
  b.perTest();
  let bin: Binary | null = null;
  let binaries = 0;
  let open = false;
  const doctests: Doctests = { runs: 0, failed: 0 };
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    if (line === "") continue;
    const header = /^# binary (.+)$/.exec(line);
    if (header) {
      // A binary whose section never closed was cut off (the runner was killed with it).
      if (open) break;
      bin = { target: targetOf(header[1]!), logged: true, results: new Map() };
      binaries++;
      open = true;
      continue;
    }
    if (!bin || !open) continue;
    if (line === "# no log") bin.logged = false;
    else if (line.startsWith("# exit ")) {
      finish(b, bin, line.slice("# exit ".length), doctests);
      open = false;
    } else entry(b, bin, line);
  }
  if (binaries === 0) return null;
  if (doctests.runs > 0) {
    b.outcome("doctests", doctests.failed > 0 ? "failed" : "passed");
    if (doctests.failed === 0) b.pass();
    else b.fail({ name: "doctests", message: `${doctests.failed} of ${doctests.runs} doctests failed` });
  }
  return b.build("libtest-log", !open, "cargo");
}

/**
 * libtest's log names a failing test but rarely says why; its output's failure
 * sections do. Only the messages are taken from the output (which the tests can
 * print to): the outcomes stay the log's.
 */
export function withOutputMessages(report: ParsedReport, output: ParsedReport | null): ParsedReport {
  if (!output || output.failures.length === 0) return report;
  const byName = new Map(output.failures.map((f) => [f.name, f]));
  // The same cap on all failures' text as the parsers keep.
  let chars = report.failures.reduce((n, f) => n + f.name.length + (f.message?.length ?? 0), 0);
  const failures = report.failures.map((f) => {
    const at = f.name.indexOf("::");
    const said = f.message || at < 0 ? undefined : byName.get(f.name.slice(at + 2));
    const cost = (said?.message?.length ?? 0) + (said?.file?.length ?? 0);
    if (!said || chars + cost > MAX_FAILURE_CHARS) return f;
    chars += cost;
    return { ...f, ...(said.file ? { file: said.file } : {}), ...(said.message ? { message: said.message } : {}) };
  });
  return { ...report, failures };
}
