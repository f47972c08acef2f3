import { describe, expect, it } from "vitest";
import { isTransientStorageError } from "./storage-errors";
import { scrubText } from "./text-scrub";

// Shaped like Prisma's known request errors (a code and meta), which the classifier reads structurally.
const known = (code: string, message = "x", meta?: Record<string, unknown>) =>
  Object.assign(new Error(message), { code, meta });
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("isTransientStorageError", () => {
  it("retries outages, admin shutdowns, busy databases and write conflicts", () => {
    for (const error of [
      known("P1001", "Can't reach database server at 127.0.0.1:5432"),
      known("P1017", "Server has closed the connection."),
      known("P2034"),
      known("P2010", "raw query failed", { driverAdapterError: { cause: { originalCode: "57P01" } } }),
      pgError("57P01", "terminating connection due to administrator command"),
      pgError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432"),
      new Error("Connection terminated unexpectedly"),
      new Error("Client has encountered a connection error and is not queryable"),
      new Error("SqliteError: database is locked"),
      new Error("wrapper", { cause: pgError("08006", "connection failure") }),
      // Pool pressure and a restart in progress, as pg-pool and Prisma word them (issue 32: these failed loops for good).
      new Error("timeout exceeded when trying to connect"),
      new Error("wrapper", { cause: new Error("timeout exceeded when trying to connect") }),
      new Error("Transaction API error: Unable to start a transaction in the given time."),
      known("P2010", "raw query failed", {
        driverAdapterError: { cause: { message: "timeout exceeded when trying to connect" } },
      }),
      new Error("the database system is starting up"),
    ])
      expect(isTransientStorageError(error), String(error)).toBe(true);
  });

  it("treats constraints and invalid data as permanent", () => {
    for (const error of [
      known("P2002", "Unique constraint failed"),
      known("P2000", "value too long"),
      pgError("22021", "invalid byte sequence for encoding UTF8: 0x00"),
      pgError("23503", "violates foreign key constraint"),
      new Error("loop has no checkpoint to resume from"),
      null,
      "text",
    ])
      expect(isTransientStorageError(error), String(error)).toBe(false);
  });
});

describe("scrubText", () => {
  it("replaces NUL in nested strings and keys and leaves other values alone", () => {
    const date = new Date(0);
    const bytes = new Uint8Array([0]);
    const input = { a: "x\0y", list: ["ok", "\0"], when: date, bytes, n: 1, nested: { "k\0": "v" } };
    const out = scrubText(input);
    expect(out).toEqual({ a: "x\uFFFDy", list: ["ok", "\uFFFD"], when: date, bytes, n: 1, nested: { "k\uFFFD": "v" } });
    expect(out.when).toBe(date);
    expect(input.a).toBe("x\0y");
  });

  it("returns the same object when there is nothing to change", () => {
    const input = { a: "clean", list: [1, "two"], nested: { b: null } };
    expect(scrubText(input)).toBe(input);
  });
});
