import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildDefinition, splitCommand } from "./definition";
import { EXIT, exitCodeForLoop } from "./exit-codes";
import { expiryHours } from "./commands/loops";

const templates = [
  { id: "demo", definition: { goal: "demo goal", agent: { kind: "demo" }, loop: { stop: { maxIterations: 15 } } } },
  { id: "claude-code-tests", definition: { goal: "tests", agent: { kind: "command", preset: "claude-code" } } },
];

describe("splitCommand", () => {
  it("splits words and keeps quoted ones whole, without expanding anything", () => {
    expect(splitCommand("npm test")).toEqual(["npm", "test"]);
    expect(splitCommand(`pytest -k "slow and not db" 'a b' c\\ d ""`)).toEqual([
      "pytest",
      "-k",
      "slow and not db",
      "a b",
      "c d",
      "",
    ]);
    expect(splitCommand("echo $HOME *")).toEqual(["echo", "$HOME", "*"]);
    expect(() => splitCommand('echo "open')).toThrow(/unclosed/);
  });
});

describe("buildDefinition", () => {
  const dir = mkdtempSync(join(tmpdir(), "ralph-def-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("lays flags over the agent's template without changing the template", () => {
    const def = buildDefinition(
      { agent: "demo", goal: "ship it", maxIterations: 4, budget: 0.5, workspace: "work", check: "npm test -- --run" },
      templates,
      "/repo",
    );
    expect(def).toMatchObject({
      goal: "ship it",
      workspace: "/repo/work",
      agent: { kind: "demo" },
      loop: {
        stop: { maxIterations: 4, scoreThreshold: 1 },
        budget: { maxCostUsd: 0.5 },
        completion: { evidence: ["score"] },
      },
      scorers: [{ kind: "command-check", argv: ["npm", "test", "--", "--run"] }],
    });
    expect(templates[0]?.definition).toMatchObject({ loop: { stop: { maxIterations: 15 } } });
  });

  it("reads JSON and YAML loop files; flags still win", () => {
    writeFileSync(join(dir, "a.yaml"), "goal: from yaml\nagent:\n  kind: demo\n  delayMs: 0\n");
    writeFileSync(join(dir, "b.json"), JSON.stringify({ goal: "from json", agent: { kind: "demo" } }));
    expect(buildDefinition({ file: "a.yaml" }, [], dir)).toEqual({
      goal: "from yaml",
      agent: { kind: "demo", delayMs: 0 },
      loop: {},
    });
    expect(buildDefinition({ file: "b.json", maxIterations: 2 }, [], dir)).toMatchObject({
      goal: "from json",
      loop: { stop: { maxIterations: 2 } },
    });
  });

  it("refuses what cannot make a loop, as usage errors", () => {
    writeFileSync(join(dir, "list.json"), "[1,2]");
    writeFileSync(join(dir, "bad.yaml"), "goal: [unclosed");
    expect(() => buildDefinition({ file: "list.json" }, [], dir)).toThrow(/must hold one loop definition/);
    expect(() => buildDefinition({ file: "bad.yaml" }, [], dir)).toThrow(/not valid yaml/);
    expect(() => buildDefinition({ file: "none.json" }, [], dir)).toThrow(/cannot read none\.json: ENOENT/);
    expect(() => buildDefinition({ agent: "codex", goal: "x" }, templates)).toThrow(/no "codex-tests" template/);
    expect(() => buildDefinition({ agent: "claude-code" }, templates)).toThrow(/--goal is required/);
    expect(() => buildDefinition({ agent: "command", goal: "x" }, templates)).toThrow(/needs --cmd/);
    expect(buildDefinition({ agent: "command", goal: "x", cmd: "./agent.sh {prompt}" }, templates)).toMatchObject({
      agent: { kind: "command", preset: "generic", argv: ["./agent.sh", "{prompt}"] },
    });
  });
});

describe("exit codes", () => {
  it.each([
    [{ status: "completed", stopType: "completion" }, {}, EXIT.completed],
    [{ status: "failed", stopType: "health_failure" }, {}, EXIT.failed],
    [{ status: "stopped", stopType: "max_iterations" }, {}, EXIT.stopped],
    [{ status: "stopped", stopType: "budget_exhausted" }, {}, EXIT.stopped],
    [{ status: "stopped", stopType: "explicit_stop" }, {}, EXIT.interrupted],
    [{ status: "cancelled", stopType: "cancelled" }, {}, EXIT.interrupted],
    [{ status: "paused", stopType: null }, {}, EXIT.interrupted],
    [{ status: "awaiting_approval", stopType: null }, { noBlock: true }, EXIT.attention],
    [{ status: "awaiting_approval", stopType: null }, {}, null],
    [{ status: "running", stopType: null }, { noBlock: true }, null],
    [{ status: "queued", stopType: null }, {}, null],
  ])("%o %o → %s", (loop, options, code) => {
    expect(exitCodeForLoop(loop, options)).toBe(code);
  });

  it("share expiry durations", () => {
    expect(expiryHours("7d")).toBe(168);
    expect(expiryHours("12h")).toBe(12);
    expect(expiryHours("90m")).toBe(2);
    expect(expiryHours("3")).toBe(3);
    expect(() => expiryHours("soon")).toThrow(/7d/);
    expect(() => expiryHours("0h")).toThrow(/at least an hour/);
  });
});
