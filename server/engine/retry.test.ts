import { describe, expect, it } from "vitest";
import { parseLoopConfig } from "./config.schema";
import { exponentialBackoff, fixedDelay, noDelay, ralph, retryStrategyFromConfig, type RetryEvent } from "./retry";
import { FakeClock } from "../../test/engine-fakes";
import { validateToolCalls } from "./validators";

describe("retry strategies", () => {
  it("exponential backoff doubles within [base, 2*base] and caps at max", () => {
    const s = exponentialBackoff(1000, 5000);
    expect(s(1, () => 0)).toBe(1000);
    expect(s(1, () => 0.5)).toBe(1500);
    expect(s(2, () => 0)).toBe(2000);
    expect(s(3, () => 0.99)).toBe(5000);
    expect(s(10, () => 0)).toBe(5000);
    expect(fixedDelay(250)(7, () => 1)).toBe(250);
    expect(noDelay()(3, () => 1)).toBe(0);
  });

  it("builds the configured strategy", () => {
    const r = (retry: Record<string, unknown>) => parseLoopConfig({ retry }).retry;
    expect(retryStrategyFromConfig(r({ strategy: "fixed", fixedDelayMs: 42 }))(1, () => 0)).toBe(42);
    expect(retryStrategyFromConfig(r({ strategy: "none" }))(1, () => 0)).toBe(0);
    expect(retryStrategyFromConfig(r({ minDelayMs: 10, maxDelayMs: 100 }))(2, () => 0)).toBe(20);
  });
});

describe("ralph (SF): execute -> validate -> retry", () => {
  it("retries invalid outputs with the failures so far, on the fake clock", async () => {
    const clock = new FakeClock(0);
    const events: RetryEvent[] = [];
    const seen: number[] = [];
    const result = await ralph({
      executor: async ({ attempt, failures }) => (seen.push(failures.length), attempt),
      validator: (n: number) => validateToolCalls(n, { minToolCalls: 3 }),
      maxAttempts: 5,
      retryStrategy: exponentialBackoff(100, 1000),
      onRetry: (e) => {
        events.push(e);
      },
      sleep: clock.sleep,
      random: () => 0,
    });
    expect(result).toMatchObject({ status: "success", result: 3, attempts: 3 });
    expect(seen).toEqual([0, 1, 2]);
    expect(events.map((e) => [e.attempt, e.nextAttempt, e.delayMs])).toEqual([
      [1, 2, 100],
      [2, 3, 200],
    ]);
    expect(clock.now()).toBe(300);
  });

  it("is exhausted after maxAttempts and keeps the last result and error", async () => {
    const clock = new FakeClock(0);
    let n = 0;
    const result = await ralph({
      executor: async () => {
        n++;
        if (n === 1) throw new Error("first");
        return n;
      },
      validator: () => ({ name: "never", valid: false, errors: ["still wrong"] }),
      maxAttempts: 3,
      retryStrategy: fixedDelay(10),
      sleep: clock.sleep,
      random: clock.random,
    });
    expect(result.status).toBe("exhausted");
    if (result.status !== "exhausted") return;
    expect(result.attempts).toBe(3);
    expect(result.lastResult).toBe(3);
    expect((result.lastError as Error).message).toBe("first");
    expect(result.failures.map((f) => f.kind)).toEqual(["error", "invalid", "invalid"]);
  });

  it("stops retrying errors marked as not retryable", async () => {
    const clock = new FakeClock(0);
    const result = await ralph({
      executor: async () => {
        throw new Error("fatal");
      },
      maxAttempts: 5,
      shouldRetry: () => false,
      sleep: clock.sleep,
      random: clock.random,
    });
    expect(result).toMatchObject({ status: "exhausted", attempts: 1 });
  });

  it("returns cancelled when the signal aborts, before or between attempts", async () => {
    const clock = new FakeClock(0);
    const pre = new AbortController();
    pre.abort();
    const before = await ralph({
      executor: async () => 1,
      maxAttempts: 3,
      signal: pre.signal,
      sleep: clock.sleep,
      random: clock.random,
    });
    expect(before).toMatchObject({ status: "cancelled", attempts: 0 });

    const during = new AbortController();
    const result = await ralph({
      executor: async ({ attempt }) => {
        if (attempt === 2) during.abort();
        throw new Error(`fail ${attempt}`);
      },
      maxAttempts: 5,
      retryStrategy: fixedDelay(1000),
      signal: during.signal,
      sleep: clock.sleep,
      random: clock.random,
    });
    expect(result).toMatchObject({ status: "cancelled", attempts: 2 });

    const waiting = new AbortController();
    const pending = ralph({
      executor: async () => {
        throw new Error("x");
      },
      maxAttempts: 2,
      retryStrategy: fixedDelay(60_000),
      onRetry: () => {
        setTimeout(() => waiting.abort(), 0);
      },
      signal: waiting.signal,
      sleep: (ms, signal) => new Promise((resolve) => signal?.addEventListener("abort", () => resolve())),
      random: clock.random,
    });
    expect(await pending).toMatchObject({ status: "cancelled", attempts: 1 });
  });
});
