// The reader loop against an in-memory event table, for what a real database
// cannot easily be made to do on cue: fail a read halfway through a poll.
import { afterEach, expect, it, vi } from "vitest";
import type { Database } from "../db/client";
import type { StoredLoopEvent } from "../db/events.repo";
import { streamEvents } from "./event-stream";

interface Query {
  where: { id: { gt: number; lte?: number }; loopId?: string };
  take?: number;
}

function fakeDatabase(rows: StoredLoopEvent[], failOn: (call: number) => boolean) {
  let calls = 0;
  const findMany = async ({ where, take }: Query) => {
    if (failOn(++calls)) throw new Error("connection reset");
    return rows
      .filter((r) => r.id > where.id.gt && (where.id.lte === undefined || r.id <= where.id.lte))
      .filter((r) => !where.loopId || r.loopId === where.loopId)
      .slice(0, take);
  };
  const tx = { loopEvent: { findMany } };
  const prisma = { ...tx, $transaction: (fn: (t: typeof tx) => unknown) => fn(tx) };
  return {
    kind: "sqlite",
    target: { kind: "sqlite", url: "file:fake", file: "fake" },
    prisma,
    close: async () => {},
  } as unknown as Database;
}

const event = (id: number): StoredLoopEvent => ({
  id,
  loopId: null,
  type: "t",
  actorId: null,
  actor: "system",
  reason: null,
  payload: null,
  createdAt: new Date(0),
});
const noWakeups = { subscribe: () => () => undefined };

afterEach(() => vi.restoreAllMocks());

it("a read that fails between the id window and the rows loses nothing", async () => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const rows = [1, 2, 3].map(event);
  // Call 1 reads the ids, call 2 (the rows) fails, then all reads succeed.
  const db = fakeDatabase(rows, (call) => call === 2);
  const abort = new AbortController();
  const received: number[] = [];
  const gen = streamEvents(db, {
    afterId: 0,
    signal: abort.signal,
    wakeups: noWakeups,
    pollIntervalMs: 10,
    minPollIntervalMs: 0,
  });
  for await (const e of gen) {
    received.push(e.id);
    if (received.length === 3) abort.abort();
  }
  expect(received).toEqual([1, 2, 3]);
});

it("returns at once when aborted while waiting, and never starts when already aborted", async () => {
  const db = fakeDatabase([], () => false);
  const abort = new AbortController();
  const gen = streamEvents(db, { afterId: 0, signal: abort.signal, wakeups: noWakeups, pollIntervalMs: 60_000 });
  const next = gen.next();
  setTimeout(() => abort.abort(), 20);
  const start = performance.now();
  expect(await next).toEqual({ done: true, value: undefined });
  // Not the 60 s poll: returned when aborted, with room for a loaded machine.
  expect(performance.now() - start).toBeLessThan(3_000);

  const aborted = AbortSignal.abort();
  expect(await streamEvents(db, { afterId: 0, signal: aborted, wakeups: noWakeups }).next()).toEqual({
    done: true,
    value: undefined,
  });
});
