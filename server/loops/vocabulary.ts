// The engine's vocabularies the API sends as enums (the API layer reaches the engine only through
// loops): a loop's status, its health, why it stopped, and the live view's phase and intervention levels. One list each, defined in server/engine.
export { healthStates, interventionLevels, livePhases, loopRowStatuses, stopTypes } from "../engine";
