import { describe, expect, it } from "vitest";
import { hasMalformedEscape } from "./request-path";

describe("hasMalformedEscape", () => {
  it.each([
    ["/api/trpc/%", true],
    ["/r/%E0%A4%A", true],
    ["/r/%E0%A4%A/export/json", true],
    ["/api/trpc/loops.list%", true],
    ["/r/%zz", true],
    ["/r/%C3%28", true], // not UTF-8
    ["/api/trpc/loops.list", false],
    ["/r/abc%20def", false],
    ["/api/trpc/%25", false],
    ["/loops/x", false],
  ])("%s → %s", (path, malformed) => {
    expect(hasMalformedEscape(path)).toBe(malformed);
  });
});
