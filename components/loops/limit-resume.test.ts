import { describe, expect, it } from "vitest";
import { formatWait, limitResumeText } from "./format";

describe("waiting for a usage limit", () => {
  it("says when the loop resumes and how long that is", () => {
    const now = Date.UTC(2026, 10, 23, 15, 50);
    const at = new Date(now + 72 * 60_000);
    const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
    expect(limitResumeText(at.toISOString(), now)).toBe(`resumes ${hhmm} (in 1 h 12 m)`);
    expect(limitResumeText(new Date(now - 1000), now)).toMatch(/\(due now\)$/);
    expect(limitResumeText(null, now)).toBeNull();
  });

  it("rounds waits the way people say them", () => {
    expect(formatWait(30_000)).toBe("30 s");
    expect(formatWait(4 * 60_000)).toBe("4 m");
    expect(formatWait(2 * 3_600_000)).toBe("2 h");
    expect(formatWait(3 * 86_400_000)).toBe("3 d");
  });
});
