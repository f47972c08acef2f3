// The alarms a loop raises now, as state: the list, the header and the alarm
// check (server/alerts) all read them from here, judged by the engine's rules.
import { alarmsConfigSchema, judgeAlarms, type AlarmsConfig, type LoopAlarm } from "../engine";
import type { Db } from "../db/client";
import { alarmSignals } from "../db/alarm-signals.repo";

export type { LoopAlarm } from "../engine";

export interface AlarmLoopRow {
  id: string;
  status: string;
  health: string;
  config: unknown;
  inflightIteration: number | null;
  inflightStartedAt: Date | null;
}

/**
 * The loop's alarm settings, from its stored definition (`loop.alarms`); a
 * definition from before alarms existed gets the defaults.
 */
export function alarmsConfigOf(config: unknown): AlarmsConfig {
  const section = (config as { loop?: { alarms?: unknown } } | null)?.loop?.alarms;
  const parsed = alarmsConfigSchema.safeParse(section ?? {});
  return parsed.success ? parsed.data : alarmsConfigSchema.parse({});
}

export async function currentAlarms(db: Db, loops: AlarmLoopRow[], now: number): Promise<Map<string, LoopAlarm[]>> {
  const configs = new Map(loops.map((l) => [l.id, alarmsConfigOf(l.config)]));
  const signals = await alarmSignals(
    db,
    loops.map((l) => ({ id: l.id, windowMs: configs.get(l.id)!.runaway.windowSeconds * 1000 })),
    now,
  );
  return new Map(
    loops.map((l) => {
      const s = signals.get(l.id)!;
      const inFlight = l.inflightIteration !== null && l.inflightStartedAt !== null;
      return [
        l.id,
        judgeAlarms(
          {
            status: l.status,
            health: l.health,
            iterationsInWindow: s.iterationsInWindow,
            spendLastHourUsd: s.spendLastHourUsd,
            inflightStartedAt: inFlight ? l.inflightStartedAt!.getTime() : null,
            lastAgentSignalAt: s.lastAgentSignalAt,
          },
          configs.get(l.id)!,
          now,
        ),
      ];
    }),
  );
}
