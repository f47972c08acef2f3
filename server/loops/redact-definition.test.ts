import { describe, expect, it } from "vitest";
import { REDACTED } from "../agents/redact";
import { redactStoredDefinition } from "./redact-definition";

describe("redactStoredDefinition", () => {
  it("blanks secret references and fixed env values and lists where", () => {
    const { definition, redactedPaths } = redactStoredDefinition({
      workspace: "/srv/work",
      loop: { stop: { maxIterations: 3 } },
      agent: {
        kind: "command",
        preset: "generic",
        argv: ["./a.sh"],
        env: { TOKEN: "s3cr3t-value" },
        secrets: [{ name: "API_KEY", env: "PROD_KEY" }],
      },
      scorers: [{ kind: "llm-judge", name: "judge", model: "m", apiKeyEnv: "OPENAI_API_KEY", rubric: "r" }],
      verifier: { kind: "none" },
      reflector: { kind: "rule-based" },
    });
    expect(JSON.stringify(definition)).not.toContain("s3cr3t-value");
    expect(JSON.stringify(definition)).not.toContain("PROD_KEY");
    expect(definition.agent).toMatchObject({
      argv: ["./a.sh"],
      env: { TOKEN: REDACTED },
      secrets: [{ name: "API_KEY", env: REDACTED }],
    });
    expect(redactedPaths.sort()).toEqual(["agent.env.TOKEN", "agent.secrets.0.env", "scorers.0.apiKeyEnv"]);
    expect(definition.workspace).toBe("/srv/work");
  });

  it("survives a missing or odd stored value", () => {
    expect(redactStoredDefinition(null)).toEqual({ definition: {}, redactedPaths: [] });
  });
});
