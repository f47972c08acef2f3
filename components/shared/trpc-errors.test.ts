import { describe, expect, it } from "vitest";
import { errorMessage, fieldIssues, firstErrorMessage } from "./trpc-errors";

describe("trpc errors", () => {
  it("reads full issue paths from zod's JSON message", () => {
    const error = {
      message: JSON.stringify([
        { code: "too_small", path: ["loop", "stop", "maxIterations"], message: "must be >= 1" },
      ]),
    };
    expect(fieldIssues(error)).toEqual([{ path: "loop.stop.maxIterations", message: "must be >= 1" }]);
    expect(errorMessage(error)).toBe("loop.stop.maxIterations: must be >= 1");
  });

  it("falls back to the flattened error", () => {
    const error = {
      message: "Input validation failed",
      data: { zodError: { formErrors: ["bad"], fieldErrors: { goal: ["a loop needs a goal"] } } },
    };
    expect(fieldIssues(error)).toEqual([
      { path: "", message: "bad" },
      { path: "goal", message: "a loop needs a goal" },
    ]);
  });

  it("uses the plain message otherwise", () => {
    expect(errorMessage({ message: "Cannot resume: the loop is not paused" })).toBe(
      "Cannot resume: the loop is not paused",
    );
    expect(errorMessage(null)).toBe("Something went wrong");
  });

  it("says nothing when no request failed, else the first failure", () => {
    // The per-loop Alerts tab showed "Something went wrong" with every request successful.
    expect(firstErrorMessage(null, null, null)).toBeNull();
    expect(firstErrorMessage(undefined, null)).toBeNull();
    expect(firstErrorMessage(null, { message: "Cannot mute" }, { message: "later" })).toBe("Cannot mute");
  });
});
