// The app process's alert deliverer, started once at server start. Every app
// instance runs one; leases keep them from sending the same attempt twice.
import { randomUUID } from "node:crypto";
import { getDatabase } from "../db/database";
import { getEnv } from "../env";
import { getVapidKeys } from "../secrets/vapid-keys";
import { getSecretKey } from "../secrets/secret-key";
import { startAlertDeliverer, type AlertDeliverer } from "./alert-delivery.service";
import { checkAlarms, type AlarmState } from "./alarm-check.service";

/**
 * How often running loops are checked for the alarms: often enough that a
 * silent agent's alarm, which rises with time alone, reaches open pages
 * within about a second (a check is a few indexed reads).
 */
const ALARM_CHECK_MS = 1_000;

const globalForAlerts = globalThis as unknown as { ralphAlertDeliverer?: AlertDeliverer };

/** `onEventsWritten` wakes this process's live streams after the alarm check wrote events. */
export function startAppAlertDeliverer(onEventsWritten?: () => void): AlertDeliverer {
  if (globalForAlerts.ralphAlertDeliverer) return globalForAlerts.ralphAlertDeliverer;
  const env = getEnv();
  const db = getDatabase();
  const seen: AlarmState = new Map();
  let checking = false;
  const alarms = setInterval(() => {
    // One check at a time: a slow one is not stacked on.
    if (checking) return;
    checking = true;
    checkAlarms(db, Date.now(), { seen, onEventsWritten })
      .catch((error: Error) => console.error("Alarm check failed:", error.message))
      .finally(() => (checking = false));
  }, ALARM_CHECK_MS);
  alarms.unref();
  globalForAlerts.ralphAlertDeliverer = startAlertDeliverer(db, {
    now: Date.now,
    random: Math.random,
    key: getSecretKey(),
    publicUrl: (env.RALPH_PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    allowHosts: env.RALPH_ALERT_ALLOW_HOSTS,
    owner: `app-${process.pid}-${randomUUID()}`,
    vapid: getVapidKeys(),
  });
  return globalForAlerts.ralphAlertDeliverer;
}
