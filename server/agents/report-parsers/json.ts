/**
 * JSON reports: vitest --reporter=json and jest --json (the same shape),
 * mocha --reporter json (`stats` plus test lists). Tolerates text before and
 * after the JSON (console output, a coverage table printed after it).
 */
import type { FailingTest } from "../../engine";
import { firstLines, projectPath, ReportBuilder, type ParsedReport } from "./report";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** A report's first key tells it apart from logged objects. */
const REPORT_START = /^\{\s*"(num\w+|stats|testResults|success|startTime)"/;
const MAX_CANDIDATES = 20;

/** Index just past the object starting at `start`, or -1 when the text ends first (truncated). */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && --depth === 0) return i + 1;
  }
  return -1;
}

type Found = { value: Obj } | { truncated: true } | null;

function findReport(text: string): Found {
  let tried = 0;
  let truncated = false;
  for (const m of text.matchAll(/(^|\n)[ \t]*\{/g)) {
    const start = m.index + m[0].length - 1;
    if (!REPORT_START.test(text.slice(start, start + 200))) continue;
    if (++tried > MAX_CANDIDATES) break;
    const end = objectEnd(text, start);
    if (end === -1) {
      truncated = true;
      continue;
    }
    try {
      const value: unknown = JSON.parse(text.slice(start, end));
      if (isObj(value)) return { value };
    } catch {
      // not JSON after all; try the next candidate
    }
  }
  return truncated ? { truncated: true } : null;
}

function jestLike(j: Obj, cwd: string | undefined): ParsedReport {
  const b = new ReportBuilder();
  const files = arr(j.testResults);
  for (const file of files) {
    const path = projectPath(str(file.name), cwd);
    let failedHere = 0;
    for (const a of arr(file.assertionResults)) {
      const status = str(a.status);
      const titles = [...(Array.isArray(a.ancestorTitles) ? a.ancestorTitles : []), a.title].filter(
        (t): t is string => typeof t === "string" && t !== "",
      );
      const id = `${path ?? ""}::${titles.join(" > ") || (str(a.fullName) ?? "")}`;
      b.outcome(id, status === "passed" ? "passed" : status === "failed" ? "failed" : "skipped");
      if (status === "passed") b.pass();
      else if (status === "failed") {
        failedHere++;
        const test: FailingTest = { name: titles.join(" > ") || (str(a.fullName) ?? "(unnamed test)") };
        if (path) test.file = path;
        const messages = Array.isArray(a.failureMessages) ? a.failureMessages : [];
        const message = firstLines(messages[0]);
        if (message) test.message = message;
        b.fail(test);
      } else b.skip(); // pending, skipped, todo, disabled, focused-out
    }
    // A file that failed without a failing test did not load or failed in a hook.
    if (str(file.status) === "failed" && failedHere === 0) {
      const message = firstLines(str(file.message) ?? str(file.failureMessage));
      b.error({ name: path ?? "test file", ...(path ? { file: path } : {}), ...(message ? { message } : {}) });
      b.outcome(`${path ?? ""}::(file)`, "errored");
    }
  }
  if (files.length === 0) {
    b.pass(num(j.numPassedTests));
    b.failed += num(j.numFailedTests);
    b.skip(num(j.numPendingTests) + num(j.numTodoTests));
    const broken = num(j.numRuntimeErrorTestSuites) || (num(j.numTotalTests) === 0 ? num(j.numFailedTestSuites) : 0);
    if (broken > 0) b.errored += broken;
  }
  return b.build("json", true, "numRuntimeErrorTestSuites" in j || "openHandles" in j ? "jest" : "vitest");
}

const HOOK = /"(before|after) (all|each)" hook/;

function mochaLike(j: Obj, cwd: string | undefined): ParsedReport {
  const b = new ReportBuilder();
  const stats = isObj(j.stats) ? j.stats : {};
  const failures = arr(j.failures);
  const mochaId = (t: Obj) => `${projectPath(str(t.file), cwd) ?? ""}::${str(t.fullTitle) ?? str(t.title) ?? ""}`;
  for (const t of arr(j.passes)) b.outcome(mochaId(t), "passed");
  for (const t of arr(j.pending)) b.outcome(mochaId(t), "skipped");
  for (const t of failures)
    b.outcome(mochaId(t), HOOK.test(str(t.fullTitle) ?? str(t.title) ?? "") ? "errored" : "failed");
  if (Array.isArray(j.passes)) b.pass(j.passes.length);
  else b.pass(num(stats.passes));
  if (Array.isArray(j.pending)) b.skip(j.pending.length);
  else b.skip(num(stats.pending));
  for (const f of failures) {
    const title = str(f.fullTitle) ?? str(f.title) ?? "(unnamed test)";
    const test: FailingTest = { name: title };
    const file = projectPath(str(f.file), cwd);
    if (file) test.file = file;
    const err = isObj(f.err) ? f.err : {};
    const message = firstLines(str(err.message) ?? str(err.stack));
    if (message) test.message = message;
    if (HOOK.test(title)) b.error(test);
    else b.fail(test);
  }
  if (!Array.isArray(j.failures)) b.failed += num(stats.failures);
  return b.build("json", true, "mocha");
}

export function parseJsonReport(text: string, cwd?: string): ParsedReport | null {
  const found = findReport(text);
  if (found === null) return null;
  if ("truncated" in found) {
    const b = new ReportBuilder();
    b.warn("the JSON report ends before it is complete");
    return b.build("json", false);
  }
  const j = found.value;
  if (typeof j.numTotalTests === "number" || Array.isArray(j.testResults)) return jestLike(j, cwd);
  if (isObj(j.stats)) return mochaLike(j, cwd);
  return null;
}
