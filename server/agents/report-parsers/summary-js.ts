/** Default output of the JavaScript runners: jest, vitest, mocha (spec) and node --test (spec). */
import { SummaryDialect } from "./summary-dialect";

const normalise = (path: string) => path.replace(/^\.\//, "");

export class JestDialect extends SummaryDialect {
  readonly id = "jest";
  private file: string | undefined;
  private suitesFailed = 0;
  private readonly names = new Set<string>();

  line(line: string) {
    if (this.messageLine(line)) return;
    const fail = /^\s*FAIL\s+(\S+)/.exec(line);
    if (fail) this.file = normalise(fail[1]!);
    const bullet = /^\s*● (.+)$/.exec(line);
    if (bullet) {
      const title = bullet[1]!.trim();
      const error = title === "Test suite failed to run";
      const name = error ? (this.file ?? "test file") : title.replace(/ › /g, " > ");
      if (this.names.has(name)) return; // the summary at the end repeats them
      this.names.add(name);
      this.named({ name, ...(this.file ? { file: this.file } : {}) }, { awaitMessage: true });
      return;
    }
    const suites = /^Test Suites:\s+(.+)$/.exec(line);
    if (suites) this.suitesFailed = Number(/(\d+) failed/.exec(suites[1]!)?.[1] ?? 0);
    const tests = /^Tests:\s+(.+)$/.exec(line);
    if (tests) {
      this.reset();
      this.countParts(tests[1]!, { failed: "failed", passed: "passed", skipped: "skipped", todo: "skipped" });
      if (this.b.total === 0) this.b.errored = this.suitesFailed;
      this.seen = true;
    }
  }
}

export class VitestDialect extends SummaryDialect {
  readonly id = "vitest";
  private readonly names = new Set<string>();
  private brokenFiles = 0;

  line(line: string) {
    if (this.messageLine(line)) return;
    const fileError = /^\s*FAIL\s+(\S+)\s+\[ (.+) \]\s*$/.exec(line);
    if (fileError) {
      if (this.names.has(fileError[1]!)) return;
      this.names.add(fileError[1]!);
      this.brokenFiles++;
      this.named({ name: fileError[1]!, file: fileError[1]! }, { awaitMessage: true });
      return;
    }
    const fail = /^\s*FAIL\s+(\S+) > (.+)$/.exec(line);
    if (fail) {
      const name = fail[2]!.trim();
      if (this.names.has(`${fail[1]} ${name}`)) return;
      this.names.add(`${fail[1]} ${name}`);
      this.named({ name, file: fail[1]! }, { awaitMessage: true });
      return;
    }
    if (/^\s*Tests\s+no tests\s*$/.test(line)) {
      this.reset();
      this.b.errored = this.brokenFiles;
      this.seen = true;
      return;
    }
    const tests = /^\s*Tests\s+(.+?)\s*\((\d+)\)\s*$/.exec(line);
    if (tests) {
      this.reset();
      this.countParts(tests[1]!, { failed: "failed", passed: "passed", skipped: "skipped", todo: "skipped" });
      this.b.errored = this.brokenFiles;
      this.seen = true;
    }
  }
}

const HOOK = /"(before|after) (all|each)" hook/;

export class MochaDialect extends SummaryDialect {
  readonly id = "mocha";
  private failingSection = false;
  private block: string[] | null = null;

  line(line: string) {
    if (this.block) {
      const part = line.trim();
      this.block.push(part);
      if (part.endsWith(":") || this.block.length > 8) this.closeBlock();
      return;
    }
    if (this.messageLine(line)) return;
    const passing = /^\s+(\d+) passing\b/.exec(line);
    if (passing) {
      this.reset();
      this.b.passed = Number(passing[1]);
      this.seen = true;
      return;
    }
    const pending = /^\s+(\d+) pending\s*$/.exec(line);
    if (pending && this.seen) this.b.skipped = Number(pending[1]);
    const failing = /^\s+(\d+) failing\s*$/.exec(line);
    if (failing && this.seen) {
      this.b.failed = Number(failing[1]);
      this.failingSection = true;
      return;
    }
    const start = this.failingSection ? /^ {2}(\d+)\) (.+)$/.exec(line) : null;
    if (start) {
      this.block = [start[2]!.trim()];
      if (start[2]!.trim().endsWith(":")) this.closeBlock();
    }
  }

  private closeBlock() {
    const name = this.block!.join(" > ").replace(/:$/, "");
    this.block = null;
    const hook = HOOK.test(name);
    if (hook) {
      this.b.failed--;
      this.b.errored++;
    }
    this.named({ name }, { awaitMessage: true });
  }
}

export class NodeSpecDialect extends SummaryDialect {
  readonly id = "node";
  private failingSection = false;
  private file: string | undefined;
  private readonly totals: Record<string, number> = {};

  line(line: string) {
    if (this.messageLine(line)) return;
    const total = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)\s*$/.exec(line);
    if (total) {
      this.totals[total[1]!] = Number(total[2]);
      if (total[1] === "pass" || total[1] === "fail") this.seen = true;
      return;
    }
    if (/^✖ failing tests:\s*$/.test(line)) {
      this.failingSection = true;
      return;
    }
    if (!this.failingSection) return;
    const at = /^test at (.+)$/.exec(line);
    if (at) this.file = at[1]!.trim();
    const failed = /^✖ (.+?) \([\d.]+m?s\)\s*$/.exec(line);
    if (failed) {
      this.named({ name: failed[1]!, ...(this.file ? { file: this.file } : {}) }, { awaitMessage: true });
      this.file = undefined;
    }
  }

  override result() {
    const b = super.result();
    if (!b) return null;
    const t = (k: string) => this.totals[k] ?? 0;
    b.passed = t("pass");
    b.failed = t("fail");
    b.errored = t("cancelled");
    b.skipped = t("skipped") + t("todo");
    return b;
  }
}
