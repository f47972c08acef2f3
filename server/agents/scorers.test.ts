import { afterAll, describe, expect, it } from "vitest";
import type { ScoreContext, ScorerPort } from "../engine";
import { fixture, tempRoot, testDeps } from "./fixtures/harness";
import { goalKeywords } from "./keyword.scorer";
import { AgentConfigError, createScorers, createValidators } from "./registry";

const tmp = tempRoot();
afterAll(() => tmp.cleanup());
const deps = testDeps(tmp.root);

const ctx = (output: string, extra: Partial<ScoreContext> = {}): ScoreContext => ({
  loopId: "scoring",
  iteration: 1,
  goal: "goal",
  input: "input",
  output,
  claim: { done: false },
  toolCalls: [],
  signal: new AbortController().signal,
  ...extra,
});

const one = (config: Record<string, unknown>): ScorerPort => createScorers([config], deps)[0]!;

describe("pure scorers", () => {
  it("keyword: share of terms present, whole words, case-insensitive by default", async () => {
    const s = one({ kind: "keyword", keywords: ["token", "rollback", "C++"] });
    expect(await s.score(ctx("We add a Token and use C++ here; tokens everywhere"))).toEqual({
      score: 2 / 3,
      reason: "missing: rollback",
    });
    expect((await s.score(ctx("token rollback c++"))).score).toBe(1);
  });

  it("keyword terms come from the goal", () => {
    expect(goalKeywords("Write a migration plan for moving user sessions from cookies to signed tokens")).toEqual([
      "migration",
      "plan",
      "moving",
      "user",
      "sessions",
      "cookies",
      "signed",
      "tokens",
    ]);
  });

  it("length: full inside the range, proportional outside", async () => {
    const s = one({ kind: "length", min: 10, max: 20 });
    expect((await s.score(ctx("12345"))).score).toBe(0.5);
    expect((await s.score(ctx("1234567890ab"))).score).toBe(1);
    expect((await s.score(ctx("x".repeat(40)))).score).toBe(0.5);
    expect((await one({ kind: "length", unit: "words", min: 4 }).score(ctx("one two"))).score).toBe(0.5);
  });

  it("regex: match, no-match and minimum matches", async () => {
    expect((await one({ kind: "regex", pattern: "^done$", flags: "mi" }).score(ctx("work\nDONE"))).score).toBe(1);
    expect((await one({ kind: "regex", pattern: "TODO", expect: "no-match" }).score(ctx("a TODO left"))).score).toBe(0);
    expect((await one({ kind: "regex", pattern: "\\d+", minMatches: 3 }).score(ctx("1 2"))).score).toBe(0);
    expect(() => one({ kind: "regex", pattern: "(" })).toThrow(AgentConfigError);
  });

  it("json-schema: required fields and a JSON Schema, scored by share of checks", async () => {
    const s = one({
      kind: "json-schema",
      required: ["result.files", "summary"],
      schema: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] },
    });
    expect((await s.score(ctx('{"result":{"files":["a"]},"summary":"ok"}'))).score).toBe(1);
    expect((await s.score(ctx('Here:\n```json\n{"summary": 3}\n```'))).score).toBeCloseTo(1 / 3);
    expect((await s.score(ctx("not json"))).score).toBe(0);
  });

  it("tool-calls: minimum count, required and counted tools", async () => {
    const s = one({
      kind: "tool-calls",
      minCount: 2,
      required: ["Edit", "Bash"],
      counted: ["Write", "Edit"],
      minCounted: 2,
    });
    expect((await s.score(ctx("", { toolCalls: ["Edit", "Bash", "Edit"] }))).score).toBe(1);
    const partial = await s.score(ctx("", { toolCalls: ["Bash"] }));
    expect(partial.score).toBe(1 / 4);
    expect(partial.reason).toMatch(/required tool "Edit" was not called/);
  });

  it("builds validators for pure checks whose role asks for it", () => {
    const validators = createValidators([
      { kind: "keyword", keywords: ["alpha"], role: "validate" },
      { kind: "keyword", name: "score-only", keywords: ["beta"] },
      { kind: "json-schema", required: ["id"] },
      { kind: "tool-calls", required: ["Edit"] },
      { kind: "command-check", argv: ["true"] },
    ]);
    expect(validators).toHaveLength(3);
    const subject = { output: "nothing", data: { id: 1 }, toolCalls: [], claim: { done: true } };
    expect(validators.map((v) => v(subject))).toEqual([
      { name: "keywords", valid: false, errors: ['the output does not mention "alpha"'] },
      { name: "json", valid: true, errors: [] },
      { name: "tools", valid: false, errors: ['required tool "Edit" was not called'] },
    ]);
    expect(createScorers([{ kind: "keyword", keywords: ["alpha"], role: "validate" }], deps)).toHaveLength(0);
  });

  it("refuses two scorers with the same name", () => {
    expect(() => createScorers([{ kind: "length" }, { kind: "length", min: 3 }], deps)).toThrow(/used twice/);
  });
});

describe("command-check scorer", () => {
  const check = (config: Record<string, unknown>) => one({ kind: "command-check", ...config });

  it("scores TAP by leaf tests, with the failures named", async () => {
    const result = await check({ argv: [fixture("report-tap.sh")] }).score(ctx(""));
    expect(result.score).toBe(3 / 5);
    expect(result.reason).toBe(
      "3/5 passed, 1 skipped; 2 failed: inner failure summarised by the parent, rounds # with a comment (tap, exit 1)",
    );
    expect(result.tests).toMatchObject({ passed: 3, failed: 2, skipped: 1, format: "tap", counted: true });
    expect(result.tests!.failures.map((f) => f.name)).toEqual([
      "parser > inner failure summarised by the parent",
      "rounds # with a comment",
    ]);
  });

  it("reads a JUnit report file, never a stale one", async () => {
    const s = check({ argv: [fixture("report-junit.sh")], reportFile: "junit.xml", name: "junit" });
    const first = await s.score(ctx(""));
    expect(first.score).toBeCloseTo(2 / 3);
    expect(first.tests!.failures).toEqual([{ name: "math > divides", message: "expected 2" }]);
    const stale = check({ argv: [fixture("exit-code.sh"), "0"], reportFile: "junit.xml", name: "stale" });
    const result = await stale.score(ctx(""));
    expect(result).toMatchObject({ score: 1, reason: "exit 0; no test report, scored by the exit code" });
    expect(result.tests!.warnings).toEqual(["the report file junit.xml was not written"]);
  });

  it("finds jest/vitest JSON after log noise", async () => {
    const result = await check({ argv: [fixture("report-jest.sh")] }).score(ctx(""));
    expect(result).toMatchObject({ score: 1, reason: "8/8 passed (vitest json, exit 0)" });
  });

  it("falls back to the exit code", async () => {
    expect((await check({ argv: [fixture("exit-code.sh"), "0"] }).score(ctx(""))).score).toBe(1);
    expect(await check({ argv: [fixture("exit-code.sh"), "2"] }).score(ctx(""))).toMatchObject({
      score: 0,
      reason: "exit 2; no test results: ok, nothing to parse here",
    });
  });

  it("scores a timed-out check 0", async () => {
    const result = await check({ argv: ["sleep", "30"], timeoutSeconds: 0.2, killGraceMs: 100 }).score(ctx(""));
    expect(result).toMatchObject({ score: 0, reason: "timed out after 0.2s" });
  });
});
