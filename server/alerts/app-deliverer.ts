// The app process's alert deliverer, started once at server start. Every app
// instance runs one; leases keep them from sending the same attempt twice.
import { randomUUID } from "node:crypto";
import { getDatabase } from "../db/database";
import { getEnv } from "../env";
import { getSecretKey } from "../secrets/secret-key";
import { startAlertDeliverer, type AlertDeliverer } from "./alert-delivery.service";
import { checkAlarms } from "./alarm-check.service";

/** How often running loops are checked for the runaway and silent-agent alarms. */
const ALARM_CHECK_MS = 15_000;

const globalForAlerts = globalThis as unknown as { ralphAlertDeliverer?: AlertDeliverer };

export function startAppAlertDeliverer(): AlertDeliverer {
  if (globalForAlerts.ralphAlertDeliverer) return globalForAlerts.ralphAlertDeliverer;
  const env = getEnv();
  const db = getDatabase();
  const alarms = setInterval(() => {
    checkAlarms(db, Date.now()).catch((error: Error) => console.error("Alarm check failed:", error.message));
  }, ALARM_CHECK_MS);
  alarms.unref();
  globalForAlerts.ralphAlertDeliverer = startAlertDeliverer(db, {
    now: Date.now,
    random: Math.random,
    key: getSecretKey(),
    publicUrl: (env.RALPH_PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    allowHosts: env.RALPH_ALERT_ALLOW_HOSTS,
    owner: `app-${process.pid}-${randomUUID()}`,
  });
  return globalForAlerts.ralphAlertDeliverer;
}
