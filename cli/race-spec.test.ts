import { describe, expect, it } from "vitest";
import { buildRace, parseContender } from "./race-spec";

describe("ralph race start's contender specs", () => {
  it("reads claude-code and codex with an optional model, and cmd: as the generic preset", () => {
    expect(parseContender("a=claude-code")).toEqual({ label: "a", agent: { kind: "command", preset: "claude-code" } });
    expect(parseContender("b=codex:gpt-5")).toEqual({
      label: "b",
      agent: { kind: "command", preset: "codex", model: "gpt-5" },
    });
    expect(parseContender('c=cmd:./agent.sh "two words" {prompt}')).toEqual({
      label: "c",
      agent: { kind: "command", preset: "generic", argv: ["./agent.sh", "two words", "{prompt}"] },
    });
  });

  it("refuses what it cannot read, naming the spec", () => {
    expect(() => parseContender("claude-code")).toThrow(/write label=agent/);
    expect(() => parseContender("x=gemini")).toThrow(/"x=gemini"/);
    expect(() => parseContender("x=cmd:")).toThrow(/needs a command line/);
  });

  it("builds the race from flags: the check is the evidence, the repository every contender's workspace", () => {
    const race = buildRace(
      { goal: "g", repo: "repo", check: "npm test", contender: ["a=codex", "b=claude-code"], onto: "release" },
      "/work",
    );
    expect(race).toEqual({
      goal: "g",
      targetBranch: "release",
      base: {
        workspace: "/work/repo",
        scorers: [{ kind: "command-check", name: "check", argv: ["npm", "test"] }],
        loop: { stop: { scoreThreshold: 1 }, completion: { evidence: ["score"] } },
      },
      contenders: [
        { label: "a", agent: { kind: "command", preset: "codex" } },
        { label: "b", agent: { kind: "command", preset: "claude-code" } },
      ],
    });
    expect(() => buildRace({ goal: "g", repo: "r", contender: ["a=codex"] })).toThrow(/two --contender/);
  });
});
