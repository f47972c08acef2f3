import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LiveDispatcher } from "./live-dispatcher";

describe("LiveDispatcher", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(fetching = () => 0) {
    const client = { isFetching: vi.fn(fetching), invalidateQueries: vi.fn(async () => undefined) };
    const seen: string[] = [];
    const d = new LiveDispatcher<{ type: string }>(client);
    d.configure(
      [
        { filters: [{ queryKey: ["detail"] }], delayMs: 100 },
        { filters: [{ queryKey: ["iterations"] }], delayMs: 150, when: (e) => e.type === "iteration_finished" },
      ],
      (e) => seen.push(e.type),
    );
    return { client, seen, d };
  }

  it("hands every event over at once and coalesces a burst into one refetch per rule", () => {
    const { client, seen, d } = setup();
    for (let i = 0; i < 50; i++) d.handle({ type: i === 10 ? "iteration_finished" : "scored" });
    expect(seen).toHaveLength(50);
    expect(client.invalidateQueries).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(client.invalidateQueries).toHaveBeenCalledTimes(1);
    expect(client.invalidateQueries).toHaveBeenCalledWith({ queryKey: ["detail"] }, { cancelRefetch: false });
    vi.advanceTimersByTime(50);
    expect(client.invalidateQueries).toHaveBeenCalledTimes(2);
    expect(client.invalidateQueries).toHaveBeenLastCalledWith({ queryKey: ["iterations"] }, { cancelRefetch: false });
  });

  it("only refreshes a rule for the events it wants", () => {
    const { client, d } = setup();
    d.handle({ type: "scored" });
    vi.advanceTimersByTime(1000);
    expect(client.invalidateQueries).toHaveBeenCalledTimes(1);
  });

  it("waits for an in-flight fetch instead of cancelling it", () => {
    let fetching = 1;
    const { client, d } = setup(() => fetching);
    d.handle({ type: "scored" });
    vi.advanceTimersByTime(300);
    expect(client.invalidateQueries).not.toHaveBeenCalled();
    fetching = 0;
    vi.advanceTimersByTime(100);
    expect(client.invalidateQueries).toHaveBeenCalledTimes(1);
  });

  it("refreshes every rule once when the stream starts, to cover the gap before it", () => {
    const { client, d } = setup();
    d.started();
    d.started();
    vi.advanceTimersByTime(200);
    expect(client.invalidateQueries).toHaveBeenCalledTimes(2);
  });

  it("skips the first start when the stream resumes after the view's own data, not a later one", () => {
    const client = { isFetching: vi.fn(() => 0), invalidateQueries: vi.fn(async () => undefined) };
    const d = new LiveDispatcher<{ type: string }>(client, { replaysFirstStart: true });
    d.configure([{ filters: [{ queryKey: ["detail"] }], delayMs: 100 }]);
    d.started();
    vi.advanceTimersByTime(200);
    expect(client.invalidateQueries).not.toHaveBeenCalled();
    d.started();
    vi.advanceTimersByTime(200);
    expect(client.invalidateQueries).toHaveBeenCalledTimes(1);
  });

  it("arms again after firing and stops on dispose", () => {
    const { client, d } = setup();
    d.handle({ type: "a" });
    vi.advanceTimersByTime(100);
    d.handle({ type: "b" });
    d.dispose();
    vi.advanceTimersByTime(1000);
    expect(client.invalidateQueries).toHaveBeenCalledTimes(1);
  });

  it("holds deferred events for the next beat, and hands them over first when another event comes", () => {
    vi.setSystemTime(10_050);
    const client = { isFetching: vi.fn(() => 0), invalidateQueries: vi.fn(async () => undefined) };
    const seen: string[] = [];
    const d = new LiveDispatcher<{ type: string }>(client);
    d.configure(
      [],
      (e) => seen.push(e.type),
      (e) => e.type !== "status_changed",
    );
    d.handle({ type: "iteration_live" });
    d.handle({ type: "iteration_finished" });
    vi.advanceTimersByTime(400);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(60);
    expect(seen).toEqual(["iteration_live", "iteration_finished"]);
    d.handle({ type: "iteration_started" });
    d.handle({ type: "status_changed" });
    expect(seen).toEqual(["iteration_live", "iteration_finished", "iteration_started", "status_changed"]);
    d.handle({ type: "iteration_live" });
    d.dispose();
    vi.advanceTimersByTime(2000);
    expect(seen).toHaveLength(4);
  });
});
