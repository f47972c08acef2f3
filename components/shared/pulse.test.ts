import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { atNextBeat, inBeat, onEverySecond, untilBeat } from "./pulse";

describe("pulse", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("runs queued jobs on the next half second, the clock on whole seconds only, jobs queued by jobs on the same beat", () => {
    vi.setSystemTime(20_100);
    const ran: string[] = [];
    const stop = onEverySecond(() => ran.push(`tick ${Date.now()}`));
    atNextBeat(() => {
      ran.push(`job ${Date.now()} ${inBeat()}`);
      atNextBeat(() => ran.push(`nested ${Date.now()}`));
    });
    vi.advanceTimersByTime(399);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(["job 20500 true", "nested 20500"]);
    vi.advanceTimersByTime(500);
    expect(ran.slice(2)).toEqual(["tick 21000"]);
    stop();
    atNextBeat(() => ran.push(`late ${Date.now()}`));
    vi.advanceTimersByTime(2000);
    expect(ran.slice(3)).toEqual(["late 21500"]);
    expect(inBeat()).toBe(false);
  });

  it("never schedules a beat for now", () => {
    expect(untilBeat(10_000)).toBe(500);
    expect(untilBeat(10_499)).toBe(1);
  });
});
