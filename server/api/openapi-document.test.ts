// Issue 35, done-when 2: the published OpenAPI document is valid OpenAPI 3.1,
// lists exactly the router's procedures with their zod schemas and roles, and
// the committed copy (docs/openapi.json) equals what the router generates now:
// a procedure added, removed or changed without `npm run openapi` fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildOpenApiDocument } from "./openapi-document";
import { appRouter } from "./root";

type Operation = {
  operationId: string;
  "x-ralph-role"?: string;
  security?: unknown[];
  parameters?: { name: string; content: Record<string, { schema: { properties: { json: unknown } } }> }[];
  requestBody?: { content: Record<string, { schema: { properties: { json: unknown } } }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
type PathItem = { get?: Operation; post?: Operation };

const doc = buildOpenApiDocument();
const operations = () =>
  Object.entries(doc.paths as Record<string, PathItem>).map(([path, item]) => ({
    path,
    method: item.get ? "get" : "post",
    op: (item.get ?? item.post)!,
  }));

/** The router's procedures, found by walking its nested record (not the flat list the generator reads). */
function walk(record: Record<string, unknown>, prefix = ""): { path: string; def: Record<string, unknown> }[] {
  return Object.entries(record).flatMap(([key, value]) => {
    const node = value as { _def?: Record<string, unknown> };
    const path = prefix ? `${prefix}.${key}` : key;
    if (node._def?.procedure) return [{ path, def: node._def }];
    return walk((node._def?.record as Record<string, unknown>) ?? (value as Record<string, unknown>), path);
  });
}
const router = walk((appRouter as unknown as { _def: { record: Record<string, unknown> } })._def.record);

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const result = await new Validator().validate(doc as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("lists exactly the router's procedures, queries as GET and mutations as POST, with their roles", () => {
    expect(router.length).toBeGreaterThan(50);
    expect(operations().map((o) => o.op.operationId)).toEqual(router.map((r) => r.path).sort());
    for (const { path, def } of router) {
      const op = operations().find((o) => o.op.operationId === path)!;
      expect(op.path).toBe(`/api/trpc/${path}`);
      expect(op.method).toBe(def.type === "mutation" ? "post" : "get");
      const meta = def.meta as { role?: string; public?: true } | undefined;
      if (meta?.role) expect(op.op["x-ralph-role"], path).toBe(meta.role);
      else expect(op.op.security, path).toEqual([]);
    }
  });

  it("carries each procedure's zod input and output schemas", () => {
    const approve = operations().find((o) => o.op.operationId === "loops.controls.approve")!.op;
    const input = approve.requestBody!.content["application/json"]!.schema.properties.json;
    const ownInput = (router.find((r) => r.path === "loops.controls.approve")!.def.inputs as z.ZodType[])[0]!;
    expect(input).toMatchObject({
      type: "object",
      properties: { id: { type: "string", minLength: 1, maxLength: 100 }, comment: { maxLength: 4000 } },
      required: ["id"],
    });
    expect(Object.keys((input as { properties: object }).properties)).toEqual(
      Object.keys((ownInput as z.ZodObject).shape),
    );
    const output = JSON.stringify(approve.responses["200"]!.content!["application/json"]!.schema);
    expect(output).toContain('"outcome":{"type":"string","enum":["applied","stored"]}');
    // Dates travel as superjson writes them: ISO strings.
    const byId = JSON.stringify(operations().find((o) => o.op.operationId === "loops.byId")!.op.responses);
    expect(byId).toContain('"createdAt":{"type":"string","format":"date-time"}');
  });

  it("the committed docs/openapi.json is what the router generates now (run `npm run openapi` after a change)", () => {
    const committed = JSON.parse(readFileSync(join(process.cwd(), "docs/openapi.json"), "utf8")) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
