import { describe, expect, it } from "vitest";
import { loopDefinitionSchema } from "./loop-definition";
import { DEMO_TEMPLATE_ID, loopTemplates } from "./loop-templates";

describe("loopTemplates", () => {
  it("offers the four templates of the New-loop form, each a valid definition", () => {
    const templates = loopTemplates();
    expect(templates.map((t) => t.title)).toEqual([
      "Demo (no keys)",
      "Claude Code until tests pass",
      "Codex until tests pass",
      "Model + LLM judge",
    ]);
    for (const t of templates) expect(loopDefinitionSchema.safeParse(t.definition).success).toBe(true);
  });

  it("shows each agent kind's prompt template, editable in the form", () => {
    const sections = (id: string) =>
      (loopTemplates().find((t) => t.id === id)!.definition.loop as { input?: { sections?: string[] } }).input
        ?.sections;
    expect(sections("claude-code-tests")).toContain("Failing tests");
    expect(sections("codex-tests")).toContain("Failing tests");
    // A lone model call runs no tests: its template leaves that section out, and keeps the rest.
    expect(sections("llm-judge")).not.toContain("Failing tests");
    expect(sections("llm-judge")).toContain("Verifier");
  });

  it("paces the demo so its charts fill visibly and there is time to try the controls", () => {
    const demo = loopTemplates().find((t) => t.id === DEMO_TEMPLATE_ID)!;
    expect(demo.definition.agent).toMatchObject({ kind: "demo", delayMs: 2500, stepsToComplete: 10 });
    expect(demo.definition.loop?.stop?.maxIterations).toBe(15);
    expect(demo.requires).toBeNull();
  });

  it("lets tests decide for the coding agents", () => {
    for (const id of ["claude-code-tests", "codex-tests"]) {
      const t = loopTemplates().find((x) => x.id === id)!;
      expect(t.definition.scorers).toEqual([
        expect.objectContaining({ kind: "command-check", argv: ["npm", "test"], runner: "auto", format: "auto" }),
      ]);
      expect(t.description).toContain("detected runner");
    }
  });
});
