/**
 * Pass/fail counts from the common machine-readable test reports, so the
 * command check scores by pass ratio instead of only by exit code.
 */
export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  format: "tap" | "junit" | "json";
}

const RESULT = /^(\s*)(not ok|ok)\b(.*)$/;

/** TAP 13/14. Top-level results only (subtests are summarised by their parent); a short plan counts the missing tests as failed. */
export function parseTap(text: string): TestCounts | null {
  const lines = text.split("\n");
  const results: { indent: number; ok: boolean; directive: boolean }[] = [];
  let plan: number | null = null;
  for (const line of lines) {
    const planMatch = /^1\.\.(\d+)/.exec(line);
    if (planMatch) plan = Number(planMatch[1]);
    const m = RESULT.exec(line);
    if (!m) continue;
    results.push({ indent: m[1]!.length, ok: m[2] === "ok", directive: /#\s*(skip|todo)\b/i.test(m[3]!) });
  }
  if (results.length === 0 && plan === null) return null;
  const minIndent = Math.min(...results.map((r) => r.indent));
  const top = results.filter((r) => r.indent === minIndent);
  const skipped = top.filter((r) => r.directive).length;
  const passed = top.filter((r) => r.ok && !r.directive).length;
  let failed = top.filter((r) => !r.ok && !r.directive).length;
  if (plan !== null && plan > top.length) failed += plan - top.length;
  return { passed, failed, skipped, format: "tap" };
}

const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\b${name}="(\\d+)"`).exec(tag);
  return m ? Number(m[1]) : 0;
};

/** JUnit XML as written by vitest, jest-junit, pytest, go-junit-report and most CI tools. */
export function parseJunit(text: string): TestCounts | null {
  if (!/<testsuite[\s>]/.test(text)) return null;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let cases = 0;
  for (const m of text.matchAll(/<testcase\b[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    cases++;
    const body = m[1] ?? "";
    if (/<(failure|error)\b/.test(body)) failed++;
    else if (/<skipped\b/.test(body)) skipped++;
    else passed++;
  }
  if (cases > 0) return { passed, failed, skipped, format: "junit" };
  // Suites that list totals without test cases.
  for (const m of text.matchAll(/<testsuite\b[^>]*>/g)) {
    const tests = attr(m[0], "tests");
    const bad = attr(m[0], "failures") + attr(m[0], "errors");
    const skip = attr(m[0], "skipped");
    failed += bad;
    skipped += skip;
    passed += Math.max(0, tests - bad - skip);
  }
  return passed + failed + skipped > 0 ? { passed, failed, skipped, format: "junit" } : null;
}

type JestLike = {
  numTotalTests?: unknown;
  numPassedTests?: unknown;
  numFailedTests?: unknown;
  numPendingTests?: unknown;
  numTodoTests?: unknown;
  numFailedTestSuites?: unknown;
};

const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

function jsonCandidates(text: string): string[] {
  const trimmed = text.trim();
  const out = [trimmed];
  const at = text.indexOf('{"num');
  if (at > 0) out.push(text.slice(at, text.lastIndexOf("}") + 1));
  return out;
}

/** `vitest run --reporter=json` and `jest --json` share these totals. */
export function parseJestJson(text: string): TestCounts | null {
  for (const candidate of jsonCandidates(text)) {
    if (!candidate.startsWith("{")) continue;
    let value: JestLike;
    try {
      value = JSON.parse(candidate) as JestLike;
    } catch {
      continue;
    }
    if (typeof value.numTotalTests !== "number") continue;
    // A suite that fails to load has no tests but must not read as "nothing failed".
    const failed = n(value.numFailedTests) || (n(value.numTotalTests) === 0 ? n(value.numFailedTestSuites) : 0);
    return { passed: n(value.numPassedTests), failed, skipped: n(value.numPendingTests) + n(value.numTodoTests), format: "json" };
  }
  return null;
}

export function parseTestReport(text: string, format: "auto" | "tap" | "junit" | "json" | "exit-code"): TestCounts | null {
  switch (format) {
    case "exit-code":
      return null;
    case "tap":
      return parseTap(text);
    case "junit":
      return parseJunit(text);
    case "json":
      return parseJestJson(text);
    case "auto":
      // Plain output often has lines starting with "ok"; only numbered results or a TAP header mean TAP.
      return parseJestJson(text) ?? parseJunit(text) ?? (/^TAP version|^\s*(not )?ok \d+/m.test(text) ? parseTap(text) : null);
  }
}
