// What the app does at start: check the environment, make the database ready,
// start the sweeper that resumes loops left behind by a crash, and the alert
// deliverer that sends the outbox.
import { EnvError, getEnv } from "../env";
import { sweepOrphanBridges } from "../agents/sandbox/bridge-sweep";
import { prepareDatabase } from "../db/bootstrap";
import { resolveDatabaseTarget } from "../db/database-target";
import { getAppRuntime, startAppSweeper } from "../jobs/app-runtime";
import { startAuth } from "../auth/start-up";
import { startAppAlertDeliverer } from "../alerts/app-deliverer";
import { clientIp } from "../auth/client-ip";
import { shareAdmission } from "../share/share-admission";
import { installSharePageGate } from "../auth/share-page-gate";
import { warmHealthChecks } from "./health.service";

export async function startServerRuntime() {
  const env = getEnv(); // a bad variable fails here, naming it
  // Sandbox network bridges a killed server left behind (recorded ones only).
  sweepOrphanBridges(env.RALPH_DATA_DIR);
  const target = resolveDatabaseTarget(env.DATABASE_URL, process.cwd());
  const applied = await prepareDatabase(target, process.cwd());
  const where = target.kind === "sqlite" ? target.file : new URL(target.url).pathname.slice(1);
  const auth = await startAuth(); // before the first request: stamps peer addresses, creates RALPH_ADMIN_*
  startAppSweeper();
  warmHealthChecks();
  // proxy.ts asks this before rendering /r/<token>, so a rate-limited page is a real 429.
  installSharePageGate((token, headers) => {
    const { db, engine } = getAppRuntime().services;
    return shareAdmission(db, token, clientIp(headers), engine.now());
  });
  startAppAlertDeliverer(getAppRuntime().jobs.onEventsWritten);
  console.log(
    `Ralph Control: ${target.kind} database ${where} ` +
      (applied.length ? `migrated (${applied.join(", ")})` : "is up to date") +
      `; ${auth}`,
  );
}

/** A bad environment variable at start: print which and why, and exit (other start errors are rethrown). */
export function stopOnBadEnvironment(error: unknown): never {
  if (!(error instanceof EnvError)) throw error;
  console.error(`Ralph Control cannot start. ${error.message}`);
  process.exit(1);
}
