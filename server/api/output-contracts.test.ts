// Every procedure declares the shape of what it returns (documenso style), so
// a column added to a query later never reaches a browser by accident.
// Enumerates appRouter._def.procedures: a new procedure without `.output()`
// fails here the moment it is added.
import { describe, expect, it } from "vitest";
import { appRouter } from "./root";

/** Not declared yet, each with a reason. The list may only shrink. */
const PENDING: Record<string, string> = {
  "events.stream": "a subscription: each event is the stored row, already typed by the events repository",
};

type Proc = { _def: { type: string; output?: unknown } };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Proc>);

describe("output contracts", () => {
  it("every procedure declares .output(), except the listed ones", () => {
    const missing = procedures.filter(([path, p]) => !p._def.output && !(path in PENDING)).map(([path]) => path);
    expect(missing).toEqual([]);
  });

  it("the pending list names only procedures that exist and still lack a contract", () => {
    const stale = Object.keys(PENDING).filter((path) => {
      const proc = procedures.find(([p]) => p === path)?.[1];
      return !proc || Boolean(proc._def.output);
    });
    expect(stale).toEqual([]);
  });
});
