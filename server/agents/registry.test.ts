import { z } from "zod";
import { afterAll, describe, expect, it } from "vitest";
import {
  agentConfigSchema,
  redactAgentConfig,
  redactScorerConfigs,
  scorerConfigSchema,
  verifierConfigSchema,
} from "./agent.schema";
import { demoLoopPreset } from "./demo.preset";
import { tempRoot, testDeps } from "./fixtures/harness";
import { REDACTED, scrubSecrets } from "./redact";
import { AgentConfigError, createAgent, createPorts, createReflector, createVerifier } from "./registry";
import { envSecretResolver } from "./secret-resolver";

const tmp = tempRoot();
afterAll(() => tmp.cleanup());
const deps = testDeps(tmp.root);

describe("schemas and registry", () => {
  it("selects every agent kind by config", () => {
    for (const config of [
      { kind: "command", preset: "claude-code" },
      { kind: "command", preset: "codex" },
      { kind: "command", argv: ["./agent.sh"] },
      { kind: "llm", model: "gpt-4.1-mini" },
      { kind: "llm", provider: "openai-compatible", model: "llama3.1", baseURL: "http://127.0.0.1:11434/v1" },
      { kind: "webhook", url: "https://agents.example.com/run" },
      { kind: "demo" },
    ]) {
      expect(typeof createAgent(config, deps).run).toBe("function");
    }
  });

  it("names each bad field", () => {
    const error = (() => {
      try {
        createAgent({ kind: "llm", provider: "openai-compatible", model: "" }, deps);
      } catch (e) {
        return e as AgentConfigError;
      }
    })()!;
    expect(error).toBeInstanceOf(AgentConfigError);
    expect(error.issues.join("\n")).toMatch(/model/);
    expect(() => createAgent({ kind: "carrier-pigeon" }, deps)).toThrow(AgentConfigError);
  });

  it("fills sensible defaults", () => {
    expect(agentConfigSchema.parse({ kind: "command", preset: "claude-code" })).toMatchObject({
      promptVia: "stdin",
      timeoutSeconds: 1200,
      killGraceMs: 5000,
      maxOutputBytes: 1_000_000,
      envAllow: expect.arrayContaining(["PATH", "HOME"]),
    });
    expect(verifierConfigSchema.parse({ kind: "llm", model: "gpt-4o-mini" })).toMatchObject({
      answerMaxChars: 4000,
      previousAttempts: 5,
    });
  });

  it("exposes labels and secret markers to a generated form", () => {
    const json = JSON.stringify(z.toJSONSchema(agentConfigSchema, { io: "input" }));
    expect(json).toContain('"description":"Command-line agent (a fresh process per iteration)"');
    expect(json).toMatch(/"apiKeyEnv":\{[^}]*"secret":true/);
    expect(JSON.stringify(z.toJSONSchema(scorerConfigSchema, { io: "input" }))).toContain("LLM judge");
  });

  it("redacts secret references, headers and fixed env for shared pages", () => {
    const llm = redactAgentConfig({
      kind: "llm",
      model: "gpt-4o",
      apiKeyEnv: "OPENAI_API_KEY",
      apiKeySecret: "team-key",
    });
    expect(llm).toEqual({ kind: "llm", model: "gpt-4o", apiKeyEnv: REDACTED, apiKeySecret: REDACTED });
    const cmd = redactAgentConfig({
      kind: "command",
      argv: ["claude"],
      env: { DEBUG: "1" },
      secrets: [{ name: "ANTHROPIC_API_KEY", env: "ANTHROPIC_API_KEY" }],
    });
    expect(cmd).toEqual({
      kind: "command",
      argv: ["claude"],
      env: { DEBUG: REDACTED },
      secrets: [{ name: "ANTHROPIC_API_KEY", env: REDACTED }],
    });
    const hook = redactAgentConfig({
      kind: "webhook",
      url: "https://x.test",
      signingKeySecret: "s",
      headers: { Authorization: "Bearer abc" },
    });
    expect(hook).toMatchObject({
      url: "https://x.test",
      signingKeySecret: REDACTED,
      headers: { Authorization: REDACTED },
    });
    expect(redactScorerConfigs([{ kind: "llm-judge", rubric: "r", model: "m", apiKeyEnv: "K" }])).toEqual([
      { kind: "llm-judge", rubric: "r", model: "m", apiKeyEnv: REDACTED },
    ]);
  });

  it("scrubs resolved secret values from text", () => {
    expect(scrubSecrets("key=sk-123456 and sk-123456", ["sk-123456"])).toBe(`key=${REDACTED} and ${REDACTED}`);
  });

  it("resolves env secrets by name only", async () => {
    const use = { kind: "llm" as const, hosts: [] };
    await expect(envSecretResolver.resolve({ env: "lowercase-not-allowed" }, use)).rejects.toThrow(
      /RALPH_AGENT_ENV_ALLOW/,
    );
    await expect(envSecretResolver.resolve({ env: "RALPH_SECRET_KEY" }, use)).rejects.toThrow(
      /server's own configuration/,
    );
    expect(await envSecretResolver.resolve({ secret: "id" }, use)).toBeUndefined();
  });

  it("builds a whole port bundle, the demo preset included", () => {
    const preset = demoLoopPreset("Document the REST endpoints for invoices");
    const ports = createPorts(preset, deps, "loop-x");
    expect(ports.scorers?.map((s) => s.name)).toEqual(["coverage", "length"]);
    expect(ports.verifier).toBeUndefined();
    expect(preset.agent).toMatchObject({ kind: "demo", keywords: ["document", "rest", "endpoints", "invoices"] });
    expect(typeof createReflector(undefined, deps).reflect).toBe("function");
    expect(createVerifier({ kind: "none" }, deps, "x")).toBeUndefined();
  });
});
