// The server's vocabularies in the browser, by the router's types (no server code): a loop's
// status, health and stop type. The membership maps are keyed by the router's enums, so a value
// the server adds fails to compile here until it is named; the guards check strings that arrive
// untyped (event payloads) before they are used as one.
import type { LoopDetail } from "./api-types";

export type LoopStatusName = LoopDetail["loop"]["status"];
export type HealthName = LoopDetail["loop"]["health"];
export type StopTypeName = NonNullable<LoopDetail["loop"]["stopType"]>;

const STATUSES: Record<LoopStatusName, true> = {
  draft: true,
  queued: true,
  initializing: true,
  running: true,
  interrupting: true,
  waiting: true,
  waiting_for_limit: true,
  paused: true,
  awaiting_approval: true,
  needs_attention: true,
  completed: true,
  failed: true,
  stopped: true,
  cancelled: true,
};
const HEALTHS: Record<HealthName, true> = {
  healthy: true,
  degraded: true,
  stuck: true,
  failing: true,
  terminated: true,
};

const has = (map: object, value: unknown) => typeof value === "string" && Object.hasOwn(map, value);
export const isLoopStatus = (value: unknown): value is LoopStatusName => has(STATUSES, value);
export const isHealth = (value: unknown): value is HealthName => has(HEALTHS, value);
