import { describe, expect, it } from "vitest";
import { loopAlarms, type AlarmInput } from "./loop-alarms";

const now = new Date(Date.UTC(2026, 0, 1, 12));
const ago = (ms: number) => new Date(now.getTime() - ms);
const base = (over: Partial<AlarmInput> = {}): AlarmInput => ({
  status: "running",
  lastHeartbeatAt: ago(1000),
  lastActivityAt: ago(5000),
  inflightStartedAt: null,
  recent: [],
  ...over,
});
const iterations = (durations: number[], endedAgoMs = (i: number) => (durations.length - i) * 10_000) =>
  durations.map((durationMs, i) => ({ durationMs, finishedAt: ago(endedAgoMs(i)) }));

describe("loopAlarms", () => {
  it("is quiet for a healthy running loop and for loops that are not working", () => {
    expect(loopAlarms(base({ recent: iterations([5000, 5200, 4800]) }), now)).toEqual([]);
    expect(
      loopAlarms(base({ status: "paused", lastHeartbeatAt: ago(3_600_000), lastActivityAt: ago(3_600_000) }), now),
    ).toEqual([]);
    expect(
      loopAlarms(base({ status: "completed", lastHeartbeatAt: null, lastActivityAt: ago(3_600_000) }), now),
    ).toEqual([]);
  });

  it("raises the silent-agent alarm when no heartbeat came for too long", () => {
    const alarms = loopAlarms(base({ lastHeartbeatAt: ago(45_000), lastActivityAt: ago(60_000) }), now);
    expect(alarms).toEqual([{ kind: "silent", title: "Silent agent", detail: "no heartbeat for 45 s" }]);
  });

  it("says a queued loop was not picked up", () => {
    expect(
      loopAlarms(base({ status: "queued", lastHeartbeatAt: null, lastActivityAt: ago(120_000) }), now)[0]?.title,
    ).toBe("Not picked up");
  });

  it("flags more than one iteration a second sustained over a minute", () => {
    const recent = Array.from({ length: 70 }, (_, i) => ({ durationMs: 200, finishedAt: ago(i * 800) }));
    expect(loopAlarms(base({ recent }), now).map((a) => a.detail)).toContain("70 iterations in the last minute");
  });

  it("flags a loop that suddenly iterates much faster than before", () => {
    const recent = iterations([8000, 8200, 7900, 8100, 8000, 900, 1000, 1100, 950, 1000], (i) => (10 - i) * 20_000);
    const alarms = loopAlarms(base({ recent }), now);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.detail).toMatch(/^iterating 8× faster/);
  });

  it("flags an iteration running far longer than usual", () => {
    const alarms = loopAlarms(
      base({ inflightStartedAt: ago(10 * 60_000), recent: iterations([60_000, 55_000, 65_000]) }),
      now,
    );
    expect(alarms).toEqual([{ kind: "runaway", title: "Long iteration", detail: "running 600 s, usually 60 s" }]);
    expect(
      loopAlarms(base({ inflightStartedAt: ago(4 * 60_000), recent: iterations([60_000, 55_000, 65_000]) }), now),
    ).toEqual([]);
  });

  it("without history only an hour-long iteration is long", () => {
    expect(loopAlarms(base({ inflightStartedAt: ago(30 * 60_000) }), now)).toEqual([]);
    expect(loopAlarms(base({ inflightStartedAt: ago(61 * 60_000) }), now)[0]?.title).toBe("Long iteration");
  });
});
