// What the race form sends: the base definition graded by the check, one agent per contender.
import { describe, expect, it } from "vitest";
import { emptyRace, raceInput } from "./race-form-model";

describe("raceInput", () => {
  it("builds one command agent per contender and grades every one by the same check", () => {
    const d = emptyRace();
    d.goal = " fix it ";
    d.workspace = "/repo";
    d.contenders[0] = { label: "a", preset: "generic", command: "./agent.sh  fast", model: "", prompt: "" };
    d.contenders[1] = { label: "b", preset: "codex", command: "ignored", model: "gpt-5", prompt: " be brief " };
    const input = raceInput(d);
    expect(input.goal).toBe("fix it");
    expect(input.base.scorers).toEqual([{ kind: "command-check", name: "check", argv: ["npm", "test"] }]);
    expect(input.contenders.map((c) => c.agent)).toEqual([
      { kind: "command", preset: "generic", argv: ["./agent.sh", "fast"] },
      { kind: "command", preset: "codex", model: "gpt-5" },
      { kind: "command", preset: "claude-code" },
    ]);
    expect(input.contenders[1]!.prompt).toBe("be brief");
  });

  it("sends no scorer without a check command (the server then refuses: no evidence source)", () => {
    const d = emptyRace();
    d.check = "  ";
    expect(raceInput(d).base.scorers).toEqual([]);
  });
});
