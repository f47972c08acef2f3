import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LiveIterationCache } from "./live-cache";
import type { LiveView } from "./live-fold";

const row = (id: number, lines: string[]) => ({
  id,
  type: "iteration_live",
  payload: {
    iteration: 1,
    agentId: "a",
    startedAt: 1000,
    phase: "agent",
    heartbeatAt: 1000 + id,
    outputAt: 1000 + id,
    health: "healthy",
    interventions: [],
    tools: [],
    lines,
    skippedLines: 0,
    totalLines: id,
  },
});

describe("LiveIterationCache", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  const key = ["live", "loop-1"];

  it("folds rows that arrive together into one cache write, in order", () => {
    const client = new QueryClient();
    const writes = vi.spyOn(client, "setQueryData");
    const cache = new LiveIterationCache(client);
    expect(cache.apply(key, row(1, ["one"]))).toBe(true);
    expect(cache.apply(key, row(2, ["two"]))).toBe(true);
    expect(client.getQueryData(key)).toBeUndefined();
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveBeenCalledTimes(1);
    expect(client.getQueryData<LiveView>(key)).toMatchObject({ lines: ["one", "two"], lastEventId: 2 });
  });

  it("lets other events through, and an iteration's end clears the view and drops its queued rows", () => {
    const client = new QueryClient();
    const cache = new LiveIterationCache(client);
    expect(cache.apply(key, { id: 3, type: "scored", payload: {} })).toBe(false);
    cache.apply(key, row(4, ["late"]));
    expect(cache.apply(key, { id: 5, type: "iteration_finished", payload: {} })).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(client.getQueryData(key)).toBeNull();
  });

  it("applies on the beat: an end and the next iteration's first row in one write, nothing before", () => {
    const client = new QueryClient();
    const writes = vi.spyOn(client, "setQueryData");
    const cache = new LiveIterationCache(client);
    cache.apply(key, row(1, ["one"]));
    vi.advanceTimersByTime(1000);
    expect(client.getQueryData<LiveView>(key)).toMatchObject({ iteration: 1, lines: ["one"] });
    cache.apply(key, { id: 2, type: "iteration_finished", payload: {} });
    const next = row(3, ["fresh"]);
    next.payload.iteration = 2;
    cache.apply(key, next);
    expect(client.getQueryData<LiveView>(key)).toMatchObject({ iteration: 1 });
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveBeenCalledTimes(2);
    expect(client.getQueryData<LiveView>(key)).toMatchObject({ iteration: 2, lines: ["fresh"], lastEventId: 3 });
  });
});

describe("LiveIterationCache and the first fetch", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  const key = ["live", "loop-1"];

  it("rows that arrived before the first loops.live answer are folded again on top of it", async () => {
    const client = new QueryClient();
    const cache = new LiveIterationCache(client);
    // The fetch started first; the server read the view at row 1, then rows 2 and 3 streamed in.
    let answer: (view: LiveView) => void = () => {};
    const fetched = client.fetchQuery({ queryKey: key, queryFn: () => new Promise<LiveView>((r) => (answer = r)) });
    cache.apply(key, row(2, ["two"]));
    cache.apply(key, row(3, ["three"]));
    vi.advanceTimersByTime(1000);
    const atRow1 = { ...row(1, ["one"]).payload, lastEventId: 1 } as unknown as LiveView;
    answer(atRow1);
    await fetched;
    expect(client.getQueryData<LiveView>(key)).toMatchObject({ lines: ["one", "two", "three"], lastEventId: 3 });
    cache.dispose();
  });

  it("an answer newer than the kept rows wins; an iteration's end forgets them", async () => {
    const client = new QueryClient();
    const cache = new LiveIterationCache(client);
    cache.apply(key, row(2, ["two"]));
    vi.advanceTimersByTime(1000);
    const newer = { ...row(5, ["five"]).payload, lastEventId: 5 } as unknown as LiveView;
    await client.fetchQuery({ queryKey: key, queryFn: () => Promise.resolve(newer) });
    expect(client.getQueryData<LiveView>(key)).toMatchObject({ lines: ["five"], lastEventId: 5 });
    cache.apply(key, { id: 6, type: "iteration_finished", payload: {} });
    vi.advanceTimersByTime(1000);
    await client.fetchQuery({ queryKey: key, queryFn: () => Promise.resolve(null), staleTime: 0 });
    expect(client.getQueryData(key)).toBeNull();
    cache.dispose();
  });
});
