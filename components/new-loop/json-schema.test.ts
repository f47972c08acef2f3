import { describe, expect, it } from "vitest";
import {
  discriminator,
  fieldKind,
  getAt,
  humanize,
  initialValue,
  setAt,
  variantOf,
  type JsonSchema,
} from "./json-schema";
import { issuesByPath, validateValue } from "./validate";

const agent: JsonSchema = {
  oneOf: [
    {
      type: "object",
      description: "Demo agent",
      properties: {
        kind: { type: "string", const: "demo" },
        delayMs: { type: "integer", default: 0, minimum: 0, maximum: 60000 },
      },
      required: ["kind"],
    },
    {
      type: "object",
      description: "Direct model call",
      properties: {
        kind: { type: "string", const: "llm" },
        model: { type: "string", minLength: 1 },
        apiKeyEnv: { type: "string", pattern: "^[A-Z][A-Z0-9_]*$", secret: true },
        baseURL: { type: "string", format: "uri" },
      },
      required: ["kind", "model"],
    },
  ],
};

const root: JsonSchema = {
  type: "object",
  required: ["goal", "agent"],
  properties: {
    goal: { type: "string", minLength: 1, maxLength: 20000 },
    name: { type: "string", default: "" },
    agent,
    scorers: {
      type: "array",
      default: [],
      items: {
        oneOf: [
          {
            type: "object",
            properties: {
              kind: { type: "string", const: "keyword" },
              keywords: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
            },
            required: ["kind", "keywords"],
          },
        ],
      },
    },
    evidence: { type: "array", items: { type: "string", enum: ["score", "verifier"] } },
    percents: { type: "array", items: { type: "number", exclusiveMinimum: 0, maximum: 100 } },
    env: { type: "object", additionalProperties: { type: "string" } },
    schema: { type: "object", additionalProperties: {} },
    price: { type: "object", properties: { inputPerMTok: { type: "number", minimum: 0 } }, required: ["inputPerMTok"] },
  },
};

describe("fieldKind", () => {
  it("picks a control for every node the loop definition uses", () => {
    const p = root.properties!;
    expect([
      fieldKind(root),
      fieldKind(p.goal!),
      fieldKind(p.agent!),
      fieldKind(p.scorers!),
      fieldKind(p.evidence!),
      fieldKind(p.percents!),
      fieldKind(p.env!),
      fieldKind(p.schema!),
      fieldKind(p.price!),
    ]).toEqual([
      "object",
      "string",
      "union",
      "object-list",
      "enum-list",
      "number-list",
      "string-map",
      "json",
      "object",
    ]);
    expect(fieldKind({ type: "integer" })).toBe("integer");
    expect(fieldKind({ type: "string", const: "x" })).toBe("const");
    expect(fieldKind({ type: "array", items: { type: "string" } })).toBe("string-list");
  });
});

describe("discriminated unions", () => {
  it("finds the discriminator and its variants with labels", () => {
    const d = discriminator(agent)!;
    expect(d.key).toBe("kind");
    expect(d.variants.map((v) => [v.value, v.label])).toEqual([
      ["demo", "Demo agent"],
      ["llm", "Direct model call"],
    ]);
    expect(variantOf(agent, { kind: "llm" })?.value).toBe("llm");
    expect(variantOf(agent, undefined)?.value).toBe("demo");
  });
  it("is not a union without a shared constant", () => {
    expect(discriminator({ oneOf: [{ type: "string" }, { type: "number" }] })).toBeNull();
  });
});

describe("values", () => {
  it("gets and sets by path immutably, removing undefined", () => {
    const v = { agent: { kind: "llm", model: "m" }, scorers: [{ kind: "keyword" }] };
    const next = setAt(v, ["scorers", 0, "keywords"], ["a"]) as typeof v;
    expect(getAt(next, ["scorers", 0, "keywords"])).toEqual(["a"]);
    expect(v.scorers[0]).toEqual({ kind: "keyword" });
    expect(setAt(v, ["agent", "model"], undefined)).toEqual({ agent: { kind: "llm" }, scorers: [{ kind: "keyword" }] });
  });
  it("builds initial values from defaults and required fields", () => {
    expect(initialValue(agent)).toEqual({ kind: "demo" });
    expect(initialValue(root.properties!.scorers!)).toEqual([]);
    expect(initialValue(root.properties!.scorers!.items!)).toEqual({ kind: "keyword" });
  });
  it("humanizes keys", () => {
    expect(humanize("maxIterations")).toBe("Max iterations");
  });
});

describe("validateValue", () => {
  it("accepts a good value", () => {
    expect(validateValue(root, { goal: "Do it", agent: { kind: "demo", delayMs: 100 }, percents: [80] })).toEqual([]);
  });

  it("points at the exact nested field", () => {
    const issues = validateValue(root, {
      goal: " ",
      agent: { kind: "llm", apiKeyEnv: "lower", baseURL: "ftp://x" },
      scorers: [{ kind: "keyword", keywords: [] }],
      percents: [0, 120],
      price: {},
    });
    expect(issuesByPath(issues)).toEqual(
      new Map([
        ["goal", ["is required"]],
        ["agent.model", ["is required"]],
        ["agent.apiKeyEnv", ["must be an environment variable name (A-Z, 0-9, _)"]],
        ["agent.baseURL", ["must be an http(s) URL"]],
        ["scorers.0.keywords", ["needs at least one entry"]],
        ["percents.0", ["must be > 0"]],
        ["percents.1", ["must be <= 100"]],
        ["price.inputPerMTok", ["is required"]],
      ]),
    );
  });

  it("checks numbers against their type and range", () => {
    expect(validateValue(agent, { kind: "demo", delayMs: 1.5 }).map((i) => i.message)).toEqual([
      "must be a whole number",
    ]);
    expect(validateValue(agent, { kind: "demo", delayMs: 70000 }).map((i) => i.message)).toEqual(["must be <= 60000"]);
  });

  it("asks again for values redacted in a cloned loop", () => {
    expect(validateValue(agent, { kind: "llm", model: "m", apiKeyEnv: "[redacted]" })).toEqual([
      { path: "apiKeyEnv", message: "was redacted in the loop this was cloned from: enter it again" },
    ]);
  });
});
