import { describe, expect, it } from "vitest";
import { resolveDispatchMode } from "./dispatch-mode";
import { Semaphore } from "./semaphore";

describe("Semaphore", () => {
  it("lets `limit` holders in, queues the rest in arrival order, and releases once per slot", async () => {
    const slots = new Semaphore(2);
    const a = slots.tryAcquire()!;
    const b = await slots.acquire();
    expect(slots.tryAcquire()).toBeNull();
    const order: string[] = [];
    const c = slots.acquire().then((release) => (order.push("c"), release));
    const d = slots.acquire().then((release) => (order.push("d"), release));
    expect(slots.waiting).toBe(2);
    a();
    a(); // a second release of the same slot is ignored
    const releaseC = await c;
    expect(order).toEqual(["c"]);
    expect(slots.inUse).toBe(2);
    b();
    (await d)();
    releaseC();
    expect(order).toEqual(["c", "d"]);
    expect(slots.inUse).toBe(0);
    expect(() => new Semaphore(0)).toThrow(/limit >= 1/);
  });
});

describe("resolveDispatchMode", () => {
  const env = (over: Partial<Parameters<typeof resolveDispatchMode>[0]>) =>
    resolveDispatchMode({ RALPH_RUN_JOBS: true, RALPH_APP_DISPATCH: "auto", ...over });

  it.each([
    [{}, "in-process"],
    [{ RALPH_INTERNAL_URL: "http://lb.internal:3000" }, "http"],
    [{ RALPH_APP_DISPATCH: "http" as const }, "http"],
    [{ RALPH_APP_DISPATCH: "in-process" as const, RALPH_INTERNAL_URL: "http://lb.internal:3000" }, "in-process"],
    [{ RALPH_RUN_JOBS: false, RALPH_APP_DISPATCH: "http" as const }, "workers"],
  ])("%j → %s", (over, mode) => {
    expect(env(over)).toBe(mode);
  });
});
