import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ValidationSubject } from "./ports";
import * as v from "./validators";

const subject = (over: Partial<ValidationSubject> = {}): ValidationSubject => ({
  output: "",
  data: null,
  toolCalls: [],
  claim: { done: false },
  ...over,
});

describe("validators (SF)", () => {
  it("validateSchema checks required dot paths and an optional zod schema", () => {
    const data = { result: { files: ["a.ts"], count: 1 }, empty: null };
    expect(v.validateSchema(data, { required: ["result.files", "result.count"] }).valid).toBe(true);
    expect(v.validateSchema(data, { required: ["empty", "result.missing", "result.files.x.y"] }).errors).toEqual([
      'missing required field "empty"',
      'missing required field "result.missing"',
      'missing required field "result.files.x.y"',
    ]);
    expect(v.validateSchema(null, {}).errors).toEqual(["output has no structured data"]);
    const schema = z.object({ result: z.object({ count: z.number().min(2) }) });
    expect(v.validateSchema(data, { schema }).errors[0]).toMatch(/^result\.count: /);
    expect(v.validateSchema("text", { schema }).errors[0]).toMatch(/^output: /);
  });

  it("tool call validators: minimum, required, counted (OR semantics)", () => {
    const calls = ["read", "edit", "edit", "bash"];
    expect(v.validateToolCalls(4, { minToolCalls: 5 }).errors).toEqual(["expected at least 5 tool call(s), got 4"]);
    expect(v.validateToolCalls(0, {}).valid).toBe(true);
    expect(v.validateRequiredTools(calls, { requiredTools: ["edit", "test"] }).errors).toEqual([
      'required tool "test" was not called',
    ]);
    expect(v.validateCountedTools(calls, { countedTools: ["write", "edit"], minCounted: 2 }).valid).toBe(true);
    expect(v.validateCountedTools(calls, { countedTools: ["write", "bash"], minCounted: 2 }).valid).toBe(false);
    expect(v.validateCountedTools(calls, { countedTools: ["write"] }).errors).toEqual([
      "expected at least 1 call(s) to any of [write], got 0",
    ]);
    expect(v.validateCountedTools([], {}).valid).toBe(true);
  });

  it("compose requires all to pass and concatenates errors", () => {
    const both = v.compose(
      v.requiredToolsValidator({ requiredTools: ["edit"] }),
      v.countedToolsValidator({ countedTools: ["bash"] }),
      v.toolCallsValidator({ minToolCalls: 1 }),
    );
    const r = both(subject({ toolCalls: ["read"] }));
    expect(r).toEqual({
      name: "required_tools+counted_tools+tool_calls",
      valid: false,
      errors: ['required tool "edit" was not called', "expected at least 1 call(s) to any of [bash], got 0"],
    });
    expect(both(subject({ toolCalls: ["edit", "bash"] })).valid).toBe(true);
    expect(v.compose()(subject())).toEqual({ name: "compose", valid: true, errors: [] });
  });

  it("runValidators turns a throwing validator into a failure", () => {
    const results = v.runValidators(
      [
        v.schemaValidator({ required: ["a"] }),
        () => {
          throw new Error("bug");
        },
      ],
      subject({ data: { a: 1 } }),
    );
    expect(results.map((r) => r.valid)).toEqual([true, false]);
    expect(results[1]?.errors).toEqual(["validator threw: bug"]);
  });

  it("parses structured data from whole JSON or a fenced block", () => {
    expect(v.parseOutputData('{"a":1}')).toEqual({ a: 1 });
    expect(v.parseOutputData("Here:\n```json\n[1,2]\n```\nbye")).toEqual([1, 2]);
    expect(v.parseOutputData("{not json")).toBeNull();
    expect(v.parseOutputData("plain")).toBeNull();
  });

  it("errorMessage handles any thrown value", () => {
    expect(v.errorMessage(new Error("e"))).toBe("e");
    expect(v.errorMessage("s")).toBe("s");
    expect(v.errorMessage({ code: 1 })).toBe('{"code":1}');
    expect(v.errorMessage(undefined)).toBe("undefined");
  });
});
