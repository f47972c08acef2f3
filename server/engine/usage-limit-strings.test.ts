// Reset times from the CLIs' own words, table-tested with the strings they
// print (Claude Code 2.1.x: "You've hit your <limit> · resets <time>"; Codex
// 0.17x: "You've hit your usage limit. … or try again at <time>."), read at
// chosen clock times: seconds and pm kept, a time still to come today never
// rolled a day ahead, a time just passed read as "now", a misread never a
// day-long block.
import { describe, expect, it } from "vitest";
import { limitKindOf, isUsageLimitText, usageLimitResetAt, type UsageLimitSignal } from "./usage-limit-time";

const at = (iso: string) => Date.parse(iso);
const S = 1000;

describe("usage-limit reset times from real CLI strings", () => {
  const cases: [string, string, string, string | null, string?][] = [
    // [what, received at (UTC), the agent's words, the reset expected (UTC) or null, default zone]
    [
      "Claude session limit, minutes, UTC",
      "2026-11-28T01:10:00Z",
      "You've hit your session limit · resets 3:15am (UTC)",
      "2026-11-28T03:15:00Z",
    ],
    [
      "seconds are kept, not rounded to the next day",
      "2026-11-28T02:00:00Z",
      "You've hit your session limit · resets 2:12:54am (UTC)",
      "2026-11-28T02:12:54Z",
    ],
    [
      "pm with seconds and no zone: today, 12 hours after am",
      "2026-11-28T14:30:00Z",
      "You've hit your session limit · resets 2:47:43pm",
      "2026-11-28T14:47:43Z",
    ],
    [
      "'resets 3pm' read 5 s after 3pm: just passed, now, not tomorrow",
      "2026-11-28T15:00:05Z",
      "You've hit your session limit · resets 3pm (UTC)",
      "2026-11-28T15:00:05Z",
    ],
    [
      "a CLI clock 2 minutes ahead of ours: still today",
      "2026-11-28T14:58:00Z",
      "You've hit your 5-hour limit · resets 3pm (UTC)",
      "2026-11-28T15:00:00Z",
    ],
    [
      "a zone east of UTC, and the · progress saved suffix",
      "2026-11-28T10:00:00Z",
      "You've hit your session limit · resets 2pm (Europe/Vilnius) · progress saved",
      "2026-11-28T12:00:00Z",
    ],
    [
      "weekly limit with a date",
      "2026-11-28T10:00:00Z",
      "You've hit your weekly limit · resets Dec 1, 9am (Europe/Berlin)",
      "2026-12-01T08:00:00Z",
    ],
    [
      "Opus limit with a date and minutes",
      "2026-11-28T10:00:00Z",
      "You've hit your Opus limit · resets Nov 30, 6:30pm (UTC)",
      "2026-11-30T18:30:00Z",
    ],
    [
      "Codex 'try again at' today, in the loop's zone",
      "2026-11-28T01:00:00Z",
      "You've hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at 2:28 AM.",
      "2026-11-28T02:28:00Z",
    ],
    [
      "Codex 'try again at' tomorrow (past today by far)",
      "2026-11-28T03:00:00Z",
      "You've hit your usage limit. Visit https://chatgpt.com/settings/usage to purchase more credits or try again at 2:28 AM.",
      "2026-11-29T02:28:00Z",
    ],
    [
      "Codex with a date ('%b %-d %-I:%M %p')",
      "2026-11-28T03:00:00Z",
      "You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), or try again at Dec 2 9:05 PM.",
      "2026-12-02T21:05:00Z",
    ],
    [
      "Codex with a year ('%b %-d, %Y %-I:%M %p'), New York",
      "2026-11-28T03:00:00Z",
      "You've hit your usage limit. Try again at Nov 29, 2026 2:28 AM.",
      "2026-11-29T07:28:00Z",
      "America/New_York",
    ],
    [
      "session limit 'resets 3pm' read at 15:20: tomorrow is beyond a 5-hour window, so unknown (backoff)",
      "2026-11-28T15:20:00Z",
      "You've hit your session limit · resets 3pm (UTC)",
      null,
    ],
    [
      "a date already past (no year): next year is no wait, unknown",
      "2026-11-28T10:00:00Z",
      "You've hit your weekly limit · resets Nov 20, 9am (UTC)",
      null,
    ],
    ["an unknown zone", "2026-11-28T10:00:00Z", "You've hit your session limit · resets 2pm (Mars/Olympus)", null],
    ["no time at all", "2026-11-28T10:00:00Z", "You've hit your session limit", null],
    ["13pm is not a time", "2026-11-28T10:00:00Z", "You've hit your session limit · resets 13pm (UTC)", null],
  ];

  it.each(cases)("%s", (_what, received, message, expected, zone) => {
    const now = at(received);
    expect(isUsageLimitText(message), "recognised as a limit").toBe(true);
    const reset = usageLimitResetAt({ message }, now, zone ?? "UTC");
    expect(reset === null ? null : new Date(reset).toISOString()).toBe(
      expected === null ? null : new Date(at(expected)).toISOString(),
    );
  });

  it("every current Claude and Codex wording is a plan quota (wait for the reset), not a transient rate limit", () => {
    for (const text of [
      "You've hit your session limit · resets 3:15am (UTC)",
      "You've hit your 5-hour limit · resets 3pm",
      "You've hit your weekly limit · resets Dec 1, 9am (Europe/Berlin)",
      "You've hit your Opus limit · resets Nov 30, 6:30pm (UTC)",
      "You've hit your Sonnet limit · resets Nov 30, 6:30pm (UTC)",
      "You've hit your usage limit. Upgrade to Plus to continue using Codex, or try again at 2:28 AM.",
    ]) {
      expect(isUsageLimitText(text), text).toBe(true);
      expect(limitKindOf(text), text).toBe("usage");
    }
  });
});

describe("a reset stated as data in the stream", () => {
  const now = at("2026-11-28T02:00:00Z");
  const signal = (s: Partial<UsageLimitSignal>): UsageLimitSignal => ({ message: "limited", ...s });

  it("comes before the wording, seconds and all", () => {
    const resetAt = at("2026-11-28T02:12:54Z");
    const message = "You've hit your session limit · resets 3:15am (UTC)";
    expect(usageLimitResetAt(signal({ message, resetAt, window: "five_hour" }), now)).toBe(resetAt);
  });

  it("in the past or absurdly far ahead, it is unknown: a bounded backoff, never a day-long block", () => {
    expect(usageLimitResetAt(signal({ resetAt: now - 3600 * S }), now)).toBeNull();
    expect(usageLimitResetAt(signal({ resetAt: now + 7 * 3600 * S, window: "five_hour" }), now)).toBeNull();
    expect(usageLimitResetAt(signal({ resetAt: now + 30 * 86_400 * S, window: "seven_day" }), now)).toBeNull();
    expect(usageLimitResetAt(signal({ resetAt: Number.NaN }), now)).toBeNull();
    // Just passed (clock skew): now.
    expect(usageLimitResetAt(signal({ resetAt: now - 10 * S }), now)).toBe(now);
    // A weekly window days ahead is a real wait.
    const weekly = now + 3 * 86_400 * S;
    expect(usageLimitResetAt(signal({ resetAt: weekly, window: "seven_day" }), now)).toBe(weekly);
  });
});
