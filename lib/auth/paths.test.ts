import { describe, expect, it } from "vitest";
import { isPublicPage, loginPath, safeNextPath } from "./paths";

describe("auth paths", () => {
  it("knows the pages that need no sign-in", () => {
    expect(["/login", "/setup", "/r/abc"].every(isPublicPage)).toBe(true);
    expect(["/", "/settings", "/loops/1", "/login/x", "/rx"].some(isPublicPage)).toBe(false);
  });

  it("only ever redirects to a local path after sign-in", () => {
    expect(safeNextPath("/loops/1?tab=log")).toBe("/loops/1?tab=log");
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "",
      null,
      undefined,
      "javascript:alert(1)",
    ]) {
      expect(safeNextPath(bad)).toBe("/");
    }
    expect(loginPath("/settings")).toBe("/login?next=%2Fsettings");
    expect(loginPath("/")).toBe("/login");
  });
});
