// Every cap an operator can lift has a ceiling: one loop must not be able to
// store 50 MB per iteration and send it to every browser that opens it.
import { describe, expect, it } from "vitest";
import { loopDefinitionSchema } from "./loop-definition";
import { loopTemplates } from "./loop-templates";

const commandTemplate = () => {
  const found = loopTemplates().find((t) => t.definition.agent?.kind === "command");
  if (!found) throw new Error("no command template");
  return structuredClone(found.definition) as Record<string, unknown> & { agent: Record<string, unknown> };
};

describe("loop definition caps", () => {
  it("accepts the templates' caps and refuses caps past their ceiling", () => {
    expect(loopDefinitionSchema.safeParse(commandTemplate()).success).toBe(true);
    const cases: [string, (d: ReturnType<typeof commandTemplate>) => void][] = [
      [
        "recording.maxOutputChars",
        (d) => (d.loop = { ...(d.loop as object), recording: { maxOutputChars: 50_000_000 } }),
      ],
      [
        "verification.answerMaxChars",
        (d) => (d.loop = { ...(d.loop as object), verification: { answerMaxChars: 10_000_000 } }),
      ],
      ["agent.maxOutputBytes", (d) => (d.agent.maxOutputBytes = 50_000_000)],
      ["agent.killGraceMs", (d) => (d.agent.killGraceMs = 10 ** 12)],
      ["agent.timeoutSeconds", (d) => (d.agent.timeoutSeconds = 10 ** 12)],
    ];
    for (const [name, lift] of cases) {
      const definition = commandTemplate();
      lift(definition);
      const result = loopDefinitionSchema.safeParse(definition);
      expect(result.success, name).toBe(false);
      expect(JSON.stringify(result.error?.issues), name).toMatch(/too_big|must be <=/);
    }
  });
});
