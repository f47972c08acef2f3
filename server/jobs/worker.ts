// The standalone worker (`npm run worker`): the same job runtime as the app,
// without Next. Several workers and app instances can share one PostgreSQL
// database; leases make sure a loop runs on exactly one of them at a time.
import { randomUUID } from "node:crypto";
import { sweepOrphanBridges } from "../agents/sandbox/bridge-sweep";
import type { Database } from "../db/client";
import { LocalDispatcher } from "./local-dispatcher";
import { SPOOL_SWEEP_MS, startSpoolSweep } from "./spool-recovery";
import type { JobRuntime, PortsFactory, RuntimeSettings } from "./runtime-deps";
import { systemDeps } from "./system-deps";

export interface WorkerOptions {
  db: Database;
  ports: PortsFactory;
  settings: RuntimeSettings;
  concurrency: number;
  pollMs: number;
  instanceId?: string;
  onEventsWritten?: () => void;
  log?: (message: string) => void;
}

export interface Worker {
  runtime: JobRuntime;
  dispatcher: LocalDispatcher;
  stop(): Promise<void>;
  done: Promise<void>;
}

export function startWorker(options: WorkerOptions): Worker {
  // Sandbox network bridges a killed server or worker left behind (recorded ones only).
  sweepOrphanBridges();
  const dispatcher = new LocalDispatcher();
  const instanceId = options.instanceId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  const runtime: JobRuntime = {
    db: options.db,
    ports: options.ports,
    dispatcher,
    engine: systemDeps,
    settings: options.settings,
    instanceId,
    onEventsWritten: options.onEventsWritten,
  };
  dispatcher.attach(runtime);
  const stopping = new AbortController();
  // Spend a dead runtime's spawn helper spooled (spool-recovery.ts), wherever its loops went since.
  const spools = startSpoolSweep(options.db.prisma, SPOOL_SWEEP_MS, options.log);

  const done = (async () => {
    while (!stopping.signal.aborted) {
      const free = options.concurrency - dispatcher.activeCount;
      let claimed = 0;
      if (free > 0) {
        try {
          const owner = `${instanceId}:${randomUUID()}`;
          const ids = await options.db.loopStore.claimNext(owner, new Date(), options.settings.leaseMs, free);
          for (const id of ids) dispatcher.runClaimed(id, owner);
          claimed = ids.length;
        } catch (error) {
          options.log?.(`worker ${instanceId}: claim failed: ${String(error)}`);
        }
      }
      // Busy: look again at once; idle: wait a poll interval.
      if (claimed === 0) await systemDeps.sleep(options.pollMs, stopping.signal);
    }
    await dispatcher.stop();
    spools.stop();
  })();

  return {
    runtime,
    dispatcher,
    done,
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
