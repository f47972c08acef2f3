// The engine's vocabularies the API sends as enums (the API layer reaches the engine only through
// loops): a loop's status, its health and why it stopped. One list each, defined in server/engine.
export { healthStates, loopRowStatuses, stopTypes } from "../engine";
export type { HealthState, LoopRowStatus, StopType } from "../engine";
