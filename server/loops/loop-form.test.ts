// The New-loop form checks values in the browser from the JSON Schema of
// loopDefinitionSchema; this holds that check to the schema the API uses.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldKind, discriminator, type JsonSchema } from "../../components/new-loop/json-schema";
import { validateValue } from "../../components/new-loop/validate";
import { loopDefinitionSchema } from "./loop-definition";
import { loopTemplates } from "./loop-templates";

const formSchema = z.toJSONSchema(loopDefinitionSchema, { io: "input", unrepresentable: "any" }) as JsonSchema;

describe("the generated form against the real schema", () => {
  it("accepts every template, as the server does", () => {
    for (const t of loopTemplates()) expect(validateValue(formSchema, t.definition), t.id).toEqual([]);
  });

  it("knows a control for every field of the definition", () => {
    const unknown: string[] = [];
    const walk = (s: JsonSchema, path: string) => {
      const kind = fieldKind(s);
      if (kind === "json" && !path.endsWith(".schema")) unknown.push(path);
      if (kind === "object") for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${path}.${k}`);
      if (kind === "union") for (const v of discriminator(s)!.variants) walk(v.schema, `${path}<${v.value}>`);
      if (kind === "object-list") walk(s.items!, `${path}[]`);
    };
    walk(formSchema, "");
    // Only the json-schema scorer's free-form "schema" is edited as raw JSON.
    expect(unknown).toEqual([]);
    expect(fieldKind(formSchema.properties!.agent!)).toBe("union");
    expect(discriminator(formSchema.properties!.agent!)!.variants.map((v) => v.value)).toEqual([
      "command",
      "llm",
      "webhook",
      "demo",
    ]);
  });

  it("rejects, field by field, what the server rejects", () => {
    const bad = {
      goal: "",
      agent: { kind: "llm", apiKeyEnv: "lowercase" },
      loop: { stop: { maxIterations: 0 }, validation: { minScoreThreshold: 2 } },
      scorers: [{ kind: "keyword", keywords: [] }],
    };
    const browser = new Set(validateValue(formSchema, bad).map((i) => i.path));
    const server = loopDefinitionSchema.safeParse(bad);
    expect(server.success).toBe(false);
    const serverPaths = new Set(server.error!.issues.map((i) => i.path.join(".")));
    for (const path of [
      "goal",
      "agent.model",
      "agent.apiKeyEnv",
      "loop.stop.maxIterations",
      "loop.validation.minScoreThreshold",
      "scorers.0.keywords",
    ]) {
      expect(browser.has(path), `browser flags ${path}`).toBe(true);
      expect(serverPaths.has(path), `server flags ${path}`).toBe(true);
    }
  });
});
