// Alarm state reaches open pages as events: given the previous check's state,
// the alarm check writes each change of a loop's alarms (raised, cleared,
// raised again) and nothing while they stay the same; an alarm back within
// its quiet period is shown again without a second alert. Pages refetch the
// loop on these events, so a silent agent's alarm shows without waiting.
import { expect, it } from "vitest";
import { alertHarness } from "../../test/alert-harness";
import { describeEachProvider } from "../../test/db-providers";
import { alertKindOf } from "../alert-kinds";
import { ALARM_CLEAR_AFTER_MS, checkAlarms, type AlarmState } from "./alarm-check.service";

describeEachProvider("alarm state changes", ({ db }) => {
  const { newLoop } = alertHarness(db);

  it("are written once per change, cleared included, and a repeat does not alert again", async () => {
    const now = Date.now();
    const id = await newLoop("Quiet agent");
    // The agent in flight has printed nothing since `at`.
    const inFlightSince = (at: number) =>
      db().prisma.loop.update({ where: { id }, data: { inflightIteration: 1, inflightStartedAt: new Date(at) } });
    const seen: AlarmState = new Map();
    let wakes = 0;
    const check = async (at: number) =>
      (await checkAlarms(db(), at, { seen, onEventsWritten: () => wakes++ })).filter((a) => a.loopId === id);
    const events = () =>
      db().prisma.loopEvent.findMany({
        where: { loopId: id, type: { in: ["alarm_raised", "alarm_cleared"] } },
        orderBy: { id: "asc" },
      });

    await inFlightSince(now - 5 * 60_000);
    expect(await check(now)).toEqual([
      { loopId: id, alarm: "silent", detail: "no output or heartbeat for 300 s", action: "alert" },
    ]);
    expect((await events()).map((e) => e.type)).toEqual(["alarm_raised"]);
    expect(wakes).toBe(1);

    // Still silent: nothing new to tell anyone.
    expect(await check(now + 1_000)).toEqual([]);
    expect(await events()).toHaveLength(1);
    expect(wakes).toBe(1);

    // A new iteration starts: the alarm goes away, but a gap shorter than
    // ALARM_CLEAR_AFTER_MS writes nothing (a loop at its limit must not flap).
    await inFlightSince(now + 1_500);
    await check(now + 2_000);
    expect(await events()).toHaveLength(1);
    // Gone for long enough: cleared, and that is written too.
    await check(now + 1_000 + ALARM_CLEAR_AFTER_MS);
    const cleared = (await events()).at(-1)!;
    expect(cleared).toMatchObject({ type: "alarm_cleared", payload: { alarm: "silent" } });
    expect(alertKindOf(cleared)).toBeNull();
    expect(wakes).toBe(2);

    // Silent again within the quiet period: shown again, not alerted again.
    await inFlightSince(now - 5 * 60_000);
    expect(await check(now + 2_000 + ALARM_CLEAR_AFTER_MS)).toEqual([]);
    const repeat = (await events()).at(-1)!;
    expect(repeat).toMatchObject({ type: "alarm_raised", payload: { alarm: "silent", repeat: true } });
    expect(alertKindOf(repeat)).toBeNull();
    expect(wakes).toBe(3);

    // A loop that stops being active leaves the state without an event (its status change is one).
    await db().prisma.loop.update({ where: { id }, data: { status: "paused" } });
    await check(now + 3_000 + ALARM_CLEAR_AFTER_MS);
    expect(seen.has(id)).toBe(false);
    expect(await events()).toHaveLength(3);
    expect(wakes).toBe(3);
  });

  it("survive a restart: a still-raised alarm is not written again, one that ended is cleared", async () => {
    const now = Date.now();
    const id = await newLoop("Restarted checker");
    const inFlightSince = (at: number) =>
      db().prisma.loop.update({ where: { id }, data: { inflightIteration: 1, inflightStartedAt: new Date(at) } });
    const events = () =>
      db().prisma.loopEvent.findMany({
        where: { loopId: id, type: { in: ["alarm_raised", "alarm_cleared"] } },
        orderBy: { id: "asc" },
      });
    await inFlightSince(now - 5 * 60_000);
    await checkAlarms(db(), now, { seen: new Map() });
    expect((await events()).map((e) => e.type)).toEqual(["alarm_raised"]);

    // A new process: its state starts empty, and the alarm is still there.
    const afterRestart: AlarmState = new Map();
    expect(await checkAlarms(db(), now + 1_000, { seen: afterRestart })).toEqual([]);
    expect(await events()).toHaveLength(1);

    // The agent came back while the checker was down: the alarm is cleared once, after the usual wait.
    await inFlightSince(now + 1_500);
    const again: AlarmState = new Map();
    await checkAlarms(db(), now + 2_000, { seen: again });
    expect(await events()).toHaveLength(1);
    await checkAlarms(db(), now + 2_000 + ALARM_CLEAR_AFTER_MS, { seen: again });
    expect((await events()).map((e) => e.type)).toEqual(["alarm_raised", "alarm_cleared"]);
    await checkAlarms(db(), now + 3_000 + ALARM_CLEAR_AFTER_MS, { seen: new Map() });
    expect(await events()).toHaveLength(2);
  });
});
