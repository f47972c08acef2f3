import { describe, expect, it } from "vitest";
import { redactedFieldLabel } from "./redacted-label";

const definition = {
  agent: { kind: "command", secrets: [{ name: "ANTHROPIC_API_KEY", secret: "[redacted]" }], env: { TOKEN: "x" } },
  scorers: [{ kind: "llm-judge", name: "judge", apiKey: "[redacted]", headers: { Authorization: "x" } }],
  fallbackAgent: { kind: "webhook", secrets: [{ secret: "[redacted]" }] },
};

describe("redactedFieldLabel", () => {
  it.each([
    // Issue 31: clone asked to re-enter "agent.secrets.0.secret".
    ["agent.secrets.0.secret", "the agent's secret ANTHROPIC_API_KEY"],
    ["fallbackAgent.secrets.0.secret", "the fallback agent's secret 1"],
    ["agent.env.TOKEN", "the agent's environment variable TOKEN"],
    ["scorers.0.headers.Authorization", 'the scorer "judge"\'s header Authorization'],
    ["scorers.0.apiKey", 'the scorer "judge"\'s apiKey'],
    ["agent.apiKey", "the agent's apiKey"],
    ["something.deep.unknown", "something.deep.unknown"],
  ])("%s: %s", (path, label) => {
    expect(redactedFieldLabel(path, definition)).toBe(label);
  });
});
