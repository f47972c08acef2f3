// What a job runtime needs from the outside, so the same runner serves the
// Next.js route handlers, the standalone worker and the tests.
import type { AgentTracker } from "../agents/deps";
import type { PermissionGate } from "../agents/permission-server";
import type { Deps, EnginePorts, SnapshotCodec } from "../engine";
import type { Database } from "../db/client";

export interface LoopForPorts {
  id: string;
  goal: string;
  agentKind: string;
  config: unknown;
  /** Records the in-flight agent's process group and spend (crash recovery). */
  tracker?: AgentTracker;
  /** Asks the operator about tool calls the loop's permission policy watches (Claude Code). */
  permissions?: PermissionGate;
}

/** Builds the engine's ports (agent, scorers, verifier, ...) for one loop. */
export type PortsFactory = (loop: LoopForPorts) => EnginePorts | Promise<EnginePorts>;

export interface Dispatcher {
  /** Asks some runtime to run the loop soon. Never throws; a lost dispatch is caught by the sweeper. */
  dispatch(loopId: string): void;
  /** Asks again at `at` (pacing, throttle, approval deadline). */
  dispatchAt(loopId: string, at: Date): void;
}

/**
 * The timer behind a dispatcher's `dispatchAt`: 5 ms late, because timers may fire a millisecond
 * early and the claim compares against the stored time; it never keeps the process alive.
 */
export function dispatchTimer(at: Date, fire: () => void): NodeJS.Timeout {
  const timer = setTimeout(fire, Math.max(0, at.getTime() - Date.now()) + 5);
  timer.unref?.();
  return timer;
}

export interface RuntimeSettings {
  /** A lease not renewed for this long may be taken over. */
  leaseMs: number;
  /** How often a running slice renews its lease and looks for kill requests. */
  heartbeatMs: number;
  /** A slice hands the loop back and re-dispatches after this long (route-handler time limits). */
  sliceBudgetMs: number;
  /** Waits shorter than this are slept through instead of releasing the loop. */
  inlineWaitMs: number;
}

export interface JobRuntime {
  db: Database;
  ports: PortsFactory;
  dispatcher: Dispatcher;
  engine: Deps;
  settings: RuntimeSettings;
  /** Identifies this process in lease owners and logs. */
  instanceId: string;
  /** Called after each commit that wrote events (live updates). */
  onEventsWritten?: () => void;
  /** Snapshot versions to restore into; the current release's unless a test simulates an upgrade. */
  codec?: SnapshotCodec;
}

export const DEFAULT_SETTINGS: RuntimeSettings = {
  leaseMs: 15_000,
  heartbeatMs: 2_000,
  sliceBudgetMs: 55_000,
  inlineWaitMs: 25,
};
