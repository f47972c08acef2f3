import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { runChildEventWriter, sleep, until } from "../../test/event-test-helpers";
import type { Database } from "../db/client";
import { appendEvents, latestEventId, type StoredLoopEvent } from "../db/events.repo";
import { streamEvents, type StreamEventsOptions } from "./event-stream";
import { EVENTS_CHANNEL, LISTENER_APPLICATION_NAME } from "../db/event-signals";
import { closeEventWakeups, getEventWakeups, notifyEventsWritten } from "./event-wakeups";

function reader(database: Database, options: Partial<StreamEventsOptions> & { afterId: number }) {
  const abort = new AbortController();
  const received: StoredLoopEvent[] = [];
  const gen = streamEvents(database, { signal: abort.signal, wakeups: getEventWakeups(database), ...options });
  const done = (async () => {
    for await (const event of gen) received.push(event);
  })();
  return { received, ids: () => received.map((e) => e.id), stop: () => (abort.abort(), done), done, abort };
}

async function write(database: Database, count: number, type = "test.event", loopId: string | null = null) {
  await appendEvents(
    database.prisma,
    Array.from({ length: count }, (_, i) => ({ loopId, type, payload: { i } })),
  );
  void notifyEventsWritten(database);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

afterAll(() => closeEventWakeups());

describeEachProvider("event stream", ({ kind, db, temp }) => {
  it("delivers in id order, and a resume from any delivered id repeats nothing and misses nothing", async () => {
    const base = await latestEventId(db().prisma);
    await write(db(), 5);
    const first = reader(db(), { afterId: base });
    await until(() => first.received.length === 5);
    await first.stop();
    expect(first.ids()).toEqual(range(base + 1, base + 5));

    await write(db(), 5);
    const resumed = reader(db(), { afterId: base + 3 });
    await until(() => resumed.received.length === 7);
    await sleep(100);
    await resumed.stop();
    expect(resumed.ids()).toEqual(range(base + 4, base + 10));
  });

  it("pages through a backlog larger than one batch at once", async () => {
    const base = await latestEventId(db().prisma);
    await write(db(), 25);
    const r = reader(db(), { afterId: base, batchSize: 10, pollIntervalMs: 60_000 });
    await until(() => r.received.length === 25, 2_000);
    await r.stop();
    expect(r.ids()).toEqual(range(base + 1, base + 25));
  });

  it("follows one loop, past other loops' events", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    for (const id of [a, b]) await db().prisma.loop.create({ data: { id, goal: "g", agentKind: "demo", config: {} } });
    const base = await latestEventId(db().prisma);
    const r = reader(db(), { afterId: base, loopId: b, batchSize: 3 });
    await write(db(), 7, "other", a);
    await write(db(), 2, "mine", b);
    await until(() => r.received.length === 2);
    await write(db(), 1, "mine", b);
    await until(() => r.received.length === 3);
    await r.stop();
    expect(r.received.map((e) => [e.loopId, e.type])).toEqual([
      [b, "mine"],
      [b, "mine"],
      [b, "mine"],
    ]);
  });

  it("is woken by a local write without waiting for the fallback poll", async () => {
    const r = reader(db(), { afterId: await latestEventId(db().prisma), pollIntervalMs: 60_000 });
    await sleep(50);
    const start = performance.now();
    await write(db(), 1);
    await until(() => r.received.length === 1, 5_000);
    // Far below the 60 s fallback poll, with room for a loaded machine.
    expect(performance.now() - start).toBeLessThan(3_000);
    await r.stop();
  });

  it("ends promptly on abort and unsubscribes its wake-ups", async () => {
    const wakeups = getEventWakeups(db());
    const before = wakeups.subscriberCount;
    const r = reader(db(), { afterId: await latestEventId(db().prisma), pollIntervalMs: 60_000 });
    await until(() => wakeups.subscriberCount === before + 1);
    await sleep(30);
    const start = performance.now();
    await r.stop();
    expect(performance.now() - start).toBeLessThan(3_000);
    expect(wakeups.subscriberCount).toBe(before);
  });

  it("receives events written by another process", async () => {
    const base = await latestEventId(db().prisma);
    // Without a wake-up from the other process this would wait a full minute.
    const r = reader(db(), { afterId: base, pollIntervalMs: 60_000 });
    await sleep(100);
    await runChildEventWriter(temp().target, 3);
    await until(() => r.received.length === 3, 5_000);
    await r.stop();
    expect(r.received.map((e) => e.type)).toEqual(["from.child", "from.child", "from.child"]);
  });

  it("under concurrent writers with slow commits and rollbacks, delivers every committed event once, in order", async () => {
    const r = reader(db(), { afterId: await latestEventId(db().prisma) });
    const writer = async (w: number) => {
      for (let i = 0; i < 25; i++) {
        await db()
          .prisma.$transaction(async (tx) => {
            await appendEvents(tx, [{ loopId: null, type: "stress", payload: { w, i } }]);
            await sleep(Math.random() * 15); // commits land out of id order
            if (i % 7 === 3) throw new Error("rollback");
          })
          .then(() => void notifyEventsWritten(db()))
          .catch(() => undefined);
      }
    };
    await Promise.all([0, 1, 2, 3].map(writer));
    const committed = (await db().prisma.loopEvent.findMany({ where: { type: "stress" }, orderBy: { id: "asc" } })).map(
      (e) => e.id,
    );
    expect(committed).toHaveLength(4 * 21);
    await until(() => r.received.length >= committed.length, 10_000);
    await sleep(200);
    await r.stop();
    expect(r.ids()).toEqual(committed);
  });

  if (kind !== "postgresql") return;

  const client = async () => {
    const c = new pg.Client({ connectionString: temp().target.url });
    await c.connect();
    return c;
  };
  // Starts after a fresh committed event, so ids burned by earlier tests'
  // rollbacks are behind the reader and cannot hold it back.
  const freshReader = async (options: Partial<StreamEventsOptions>) => {
    await write(db(), 1);
    return reader(db(), { afterId: await latestEventId(db().prisma), ...options });
  };
  const insert = async (c: pg.Client, type: string) =>
    (await c.query<{ id: number }>(`INSERT INTO "LoopEvent" ("type") VALUES ($1) RETURNING id`, [type])).rows[0]!.id;

  it("delivers an out-of-order commit: both events, in id order, exactly once", async () => {
    const [a, b] = [await client(), await client()];
    const r = await freshReader({ gapGraceMs: 2_000 });
    await a.query("BEGIN");
    const idA = await insert(a, "a");
    const idB = await insert(b, "b"); // autocommit: visible before A
    expect(idB).toBeGreaterThan(idA);
    void notifyEventsWritten(db());
    await sleep(300);
    expect(r.ids()).toEqual([]); // B is held back behind A's open id
    await a.query("COMMIT");
    void notifyEventsWritten(db());
    await until(() => r.received.length === 2, 1_000); // released by the commit, not by the grace
    await sleep(200);
    await r.stop();
    expect(r.ids()).toEqual([idA, idB]);
    await Promise.all([a.end(), b.end()]);
  });

  it("keeps holding past the grace while the transaction that owns the hole is still open", async () => {
    const [a, b] = [await client(), await client()];
    const r = await freshReader({ gapGraceMs: 150 });
    await a.query("BEGIN");
    const idA = await insert(a, "slow");
    const idB = await insert(b, "fast");
    void notifyEventsWritten(db());
    await sleep(1_000);
    expect(r.ids()).toEqual([]);
    await a.query("COMMIT");
    void notifyEventsWritten(db());
    await until(() => r.received.length === 2);
    await r.stop();
    expect(r.ids()).toEqual([idA, idB]);
    await Promise.all([a.end(), b.end()]);
  });

  it("re-listens after its LISTEN connection is killed", async () => {
    const admin = await client();
    const listeners = async () =>
      (
        await admin.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND query ILIKE 'LISTEN%'",
          [LISTENER_APPLICATION_NAME],
        )
      ).rows.map((r) => r.pid);
    const r = await freshReader({ pollIntervalMs: 60_000 });
    const [old] = await listeners();
    expect(old).toBeDefined();
    await admin.query("SELECT pg_terminate_backend($1)", [old]);
    const deadline = Date.now() + 5_000;
    while (!(await listeners()).some((pid) => pid !== old) && Date.now() < deadline) await sleep(50);
    await sleep(100);
    // Written and announced from another connection only: no local wake-up.
    await insert(admin, "after.reconnect");
    await admin.query("SELECT pg_notify($1, '')", [EVENTS_CHANNEL]);
    await until(() => r.received.length === 1, 2_000);
    await r.stop();
    await admin.end();
  });

  it("steps over a rolled-back id after the grace period", async () => {
    const [a, b] = [await client(), await client()];
    const grace = 400;
    const r = await freshReader({ gapGraceMs: grace });
    await a.query("BEGIN");
    const idA = await insert(a, "rolled back");
    await a.query("ROLLBACK");
    const start = performance.now();
    const idB = await insert(b, "after the hole");
    void notifyEventsWritten(db());
    await until(() => r.received.length === 1, 3_000);
    expect(performance.now() - start).toBeGreaterThanOrEqual(grace - 20);
    await write(db(), 1);
    await until(() => r.received.length === 2);
    await r.stop();
    expect(r.ids()[0]).toBe(idB);
    expect(r.ids()).not.toContain(idA);
    await Promise.all([a.end(), b.end()]);
  });
});
