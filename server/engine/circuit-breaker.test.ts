import { describe, expect, it } from "vitest";
import * as cb from "./circuit-breaker";

const config = { failureThreshold: 3, cooldown: 60 };

describe("circuit breaker", () => {
  it("closed -> open after N failures -> half_open after the cooldown -> closed on success", () => {
    let b = cb.createBreaker();
    b = cb.breakerOnFailure(b, config, 0);
    b = cb.breakerOnFailure(b, config, 0);
    expect(b.status).toBe("closed");
    b = cb.breakerOnFailure(b, config, 1_000);
    expect(b).toMatchObject({ status: "open", openedAt: 1_000, trips: 1, trialFailed: false });
    expect(cb.breakerAllows(b)).toBe(false);
    expect(cb.breakerOnFailure(b, config, 2_000)).toBe(b);
    expect(cb.breakerCooldownEnd(b, config)).toBe(61_000);
    expect(cb.breakerTick(b, config, 60_999).status).toBe("open");
    b = cb.breakerTick(b, config, 61_000);
    expect(b.status).toBe("half_open");
    expect(cb.breakerAllows(b)).toBe(true);
    b = cb.breakerOnSuccess(b);
    expect(b).toMatchObject({ status: "closed", failures: 0, openedAt: null });
  });

  it("a failed half-open trial re-opens and marks the fault persistent", () => {
    let b = cb.breakerOnFailure(cb.createBreaker(), { failureThreshold: 1, cooldown: 0 }, 0);
    b = cb.breakerTick(b, config, 0);
    expect(b.status).toBe("open");
    b = cb.breakerTick(b, { failureThreshold: 1, cooldown: 0 }, 0);
    expect(b.status).toBe("half_open");
    b = cb.breakerOnFailure(b, config, 5);
    expect(b).toMatchObject({ status: "open", trialFailed: true, openedAt: 5, trips: 2 });
  });

  it("successes reset the failure count while closed", () => {
    let b = cb.breakerOnFailure(cb.createBreaker(), config, 0);
    b = cb.breakerOnSuccess(b);
    b = cb.breakerOnFailure(cb.breakerOnFailure(b, config, 0), config, 0);
    expect(b.status).toBe("closed");
    expect(cb.breakerCooldownEnd(b, config)).toBeNull();
  });
});
