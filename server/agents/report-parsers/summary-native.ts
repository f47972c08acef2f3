/** Default output of pytest, cargo test and go test. */
import { SummaryDialect } from "./summary-dialect";

const PYTEST_WORDS = {
  failed: "failed",
  passed: "passed",
  skipped: "skipped",
  error: "errored",
  errors: "errored",
  xfailed: "skipped",
  xpassed: "passed",
} as const;

export class PytestDialect extends SummaryDialect {
  readonly id = "pytest";

  line(line: string) {
    // "==== 3 failed, 4 passed, 1 skipped in 1.37s ====", or the same bare with -q.
    const summary = /^=*\s*((?:\d+ [a-z]+(?:, )?)+) in [\d.]+s(?: \([^)]*\))?\s*=*\s*$/.exec(line);
    if (summary && /\d+ (passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?)\b/.test(summary[1]!)) {
      this.reset();
      this.countParts(summary[1]!, PYTEST_WORDS);
      this.seen = true;
      return;
    }
    if (/^=+ no tests ran\b/.test(line)) {
      this.reset();
      this.seen = true;
      return;
    }
    const failed = /^(FAILED|ERROR) (\S+)(?: - (.*))?$/.exec(line);
    if (failed) {
      const nodeid = failed[2]!;
      const file = nodeid.split("::")[0]!;
      this.named({ name: nodeid, file, ...(failed[3] ? { message: failed[3].slice(0, 500) } : {}) });
    }
  }
}

export class CargoDialect extends SummaryDialect {
  readonly id = "cargo";
  private readonly messages = new Map<string, { file?: string; message?: string }>();
  private section: string | null = null;
  private afterPanic = false;
  private readonly failed: string[] = [];

  line(line: string) {
    const result = /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored/.exec(line);
    if (result) {
      // One line per test binary (unit, each integration file, doc tests): they add up.
      this.b.passed += Number(result[1]);
      this.b.failed += Number(result[2]);
      this.b.skipped += Number(result[3]);
      this.seen = true;
      return;
    }
    const failed = /^test (\S+) \.\.\. FAILED\s*$/.exec(line);
    if (failed) this.failed.push(failed[1]!);
    const section = /^---- (\S+) std(out|err) ----\s*$/.exec(line);
    if (section) {
      this.section = section[1]!;
      this.afterPanic = false;
      return;
    }
    if (!this.section) return;
    // Rust 1.73+: "thread 'x' panicked at src/lib.rs:30:9:" then the message; older: "panicked at 'msg', src/lib.rs:30:9".
    const panicked = /panicked at (.+):\s*$/.exec(line);
    if (panicked) {
      this.messages.set(this.section, { file: panicked[1]! });
      this.afterPanic = true;
      return;
    }
    const old = /panicked at '(.*)', (\S+)\s*$/.exec(line);
    if (old) {
      this.messages.set(this.section, { file: old[2]!, message: old[1]! });
      return;
    }
    if (this.afterPanic && line.trim() !== "") {
      const entry = this.messages.get(this.section)!;
      entry.message = entry.message ? `${entry.message}\n${line.trim()}` : line.trim();
      if (entry.message.split("\n").length >= 3 || /^stack backtrace:|^note:/.test(line)) this.afterPanic = false;
    }
  }

  override result() {
    for (const name of this.failed) {
      const m = this.messages.get(name);
      const message = m?.message?.replace(/\n(stack backtrace:|note:)[\s\S]*$/, "");
      this.named({ name, ...(m?.file ? { file: m.file } : {}), ...(message ? { message } : {}) });
    }
    this.failed.length = 0;
    return super.result();
  }
}

/** go test without -json: counts need -v ("=== RUN"); otherwise only the failures are known. */
export class GoDialect extends SummaryDialect {
  readonly id = "go";
  private verbose = false;
  private readonly results = new Map<string, string>();
  /** Lines a test printed: after "=== RUN x" with -v, after "--- FAIL: x" without. */
  private readonly printed = new Map<string, string[]>();
  private current: string | null = null;

  line(line: string) {
    const run = /^=== RUN\s+(\S+)/.exec(line);
    if (run) {
      this.verbose = true;
      this.current = run[1]!;
      return;
    }
    const done = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(/.exec(line);
    if (done) {
      this.results.set(done[2]!, done[1]!);
      this.current = done[1] === "FAIL" ? done[2]! : null;
      return;
    }
    // "ok  \texample.com/pkg\t0.01s", "FAIL\texample.com/pkg\t0.004s", "ok  \tpkg\t(cached)"
    if (/^(ok|FAIL)\s+\S+\s+(\(cached\)|[\d.]+s\b|\[)/.test(line)) {
      this.seen = this.verbose;
      this.partial = !this.verbose;
      this.current = null;
      return;
    }
    if (!this.current || line.trim() === "" || /^(PASS|FAIL)$/.test(line.trim())) return;
    const lines = this.printed.get(this.current) ?? [];
    if (lines.length < 4) this.printed.set(this.current, [...lines, line.trim()]);
  }

  override result() {
    const parents = new Set<string>();
    for (const name of this.results.keys()) {
      const parts = name.split("/");
      for (let i = 1; i < parts.length; i++) parents.add(parts.slice(0, i).join("/"));
    }
    for (const [name, result] of this.results) {
      if (parents.has(name)) continue;
      if (result === "PASS") this.b.passed++;
      else if (result === "SKIP") this.b.skipped++;
      else {
        this.b.failed++;
        const lines = this.printed.get(name) ?? [];
        const located = lines.map((l) => /^([\w./-]+\.go:\d+): (.*)$/.exec(l)).find((m) => m !== null);
        this.named({
          name,
          ...(located ? { file: located[1]!, message: located[2]! } : lines[0] ? { message: lines[0] } : {}),
        });
      }
    }
    this.results.clear();
    return super.result();
  }
}
