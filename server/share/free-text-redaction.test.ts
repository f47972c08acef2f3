import { describe, expect, it } from "vitest";
import { redactFreeText, redactFreeTextDeep } from "./free-text-redaction";

describe("free text on shared pages", () => {
  it.each([
    [
      "leaked ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnop1234 in the logs",
      "leaked ANTHROPIC_API_KEY=[redacted] in the logs",
    ],
    ["use sk-ant-api03-abcdefghijklmnop1234 instead", "use [redacted] instead"],
    ["token ghp_abcdefghijklmnopqrstuvwxyz012345 was revoked", "token [redacted] was revoked"],
    ["curl -H 'Authorization: Bearer abc.def.ghi123456'", "curl -H 'Authorization: Bearer [redacted]'"],
    ["ask jane.doe@example.com first", "ask [redacted] first"],
    ["AKIAABCDEFGHIJKLMNOP is the key", "[redacted] is the key"],
    ["blob 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 here", "blob [redacted] here"],
  ])("%s", (input, shown) => {
    expect(redactFreeText(input).text).toBe(shown);
  });

  it("leaves ordinary reasons alone and reports nothing", () => {
    const reason = "Stopping: the agent keeps editing the tests instead of the code (see iteration 12).";
    expect(redactFreeText(reason)).toEqual({ text: reason, redacted: [] });
  });

  it("counts what it blanked, by kind, without the values", () => {
    const { redacted } = redactFreeText("a@b.io and c@d.io, password: hunter22");
    expect(redacted).toEqual([
      { kind: "credential", count: 1 },
      { kind: "e-mail address", count: 2 },
    ]);
  });

  it("walks payloads and keeps dates", () => {
    const at = new Date(0);
    expect(redactFreeTextDeep({ reason: "mail x@y.com", at, n: 3 })).toEqual({ reason: "mail [redacted]", at, n: 3 });
  });
});
