import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DomainError, type DomainErrorCode } from "../errors";
import { toTRPCError } from "./error-map";

describe("toTRPCError", () => {
  it.each<[DomainErrorCode, string]>([
    ["NOT_FOUND", "NOT_FOUND"],
    ["CONFLICT", "CONFLICT"],
    ["INVALID_INPUT", "BAD_REQUEST"],
    ["UNAUTHENTICATED", "UNAUTHORIZED"],
    ["FORBIDDEN", "FORBIDDEN"],
    ["RATE_LIMITED", "TOO_MANY_REQUESTS"],
    ["UNAVAILABLE", "SERVICE_UNAVAILABLE"],
  ])("maps %s to %s and keeps the message", (code, trpc) => {
    const mapped = toTRPCError(new DomainError(code, "why"));
    expect(mapped.code).toBe(trpc);
    expect(mapped.message).toBe("why");
  });

  it("maps zod errors to BAD_REQUEST and unknown errors to an opaque internal error", () => {
    const zodError = z.object({ a: z.string() }).safeParse({}).error!;
    expect(toTRPCError(zodError).code).toBe("BAD_REQUEST");
    const internal = toTRPCError(new Error("secret stack detail"));
    expect(internal.code).toBe("INTERNAL_SERVER_ERROR");
    expect(internal.message).not.toContain("secret");
  });

  it.each([
    new Error("timeout exceeded when trying to connect"),
    new Error("Transaction API error: Unable to start a transaction in the given time."),
    Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
  ])("maps a passing storage fault (%s) to SERVICE_UNAVAILABLE, not an internal error", (error) => {
    const mapped = toTRPCError(error);
    expect(mapped.code).toBe("SERVICE_UNAVAILABLE");
    expect(mapped.message).not.toContain("timeout exceeded");
  });
});
