/**
 * Public surface of the Ralph loop engine. Everything outside server/engine
 * imports from here, never from individual files (the lint refuses it).
 *
 * Comments in the engine cite its design sources as OB, AL, CD and SF; the
 * "Sources" table in ARCHITECTURE.md says which documents those are.
 */
export * from "./agent-reports";
export * from "./alarms";
export * from "./analyze";
export * from "./budget";
export * from "./canonical-json";
export * from "./checkpoint";
export * from "./checkpoint-codec";
export * from "./circuit-breaker";
export * from "./config.schema";
export * from "./control-commands";
export * from "./controls";
export * from "./cost-per-verified";
export * from "./decision";
export * from "./detectors";
export * from "./events";
export * from "./failure-kind";
export * from "./gates";
export * from "./halt-phase";
export * from "./handoff";
export * from "./health";
export * from "./iteration";
export * from "./iteration-accounting";
export * from "./iteration-record";
export * from "./learn-plan";
export * from "./loop-state";
export * from "./next-input";
export * from "./phases";
export * from "./ports";
export * from "./preflight";
export * from "./question";
export * from "./report";
export * from "./retry";
export * from "./retry-policy";
export * from "./run-phase";
export * from "./runner";
export * from "./snapshot-versions";
export * from "./snapshot";
export * from "./stop-types";
export * from "./trace";
export * from "./usage-limit";
export * from "./usage-limit-time";
export * from "./transitions";
export * from "./uuidv7";
export * from "./validators";
export * from "./vocabulary";
