// The event type of the live view of an iteration in flight: batches of its
// output, tool calls, heartbeats and phase, written while the agent runs and
// deleted once the iteration is stored. Plain vocabulary shared by storage,
// the runtime and the services, so it sits at the server root.
export const LIVE_EVENT = "iteration_live";

/** Live rows kept per loop while an iteration runs: older batches are dropped (a rolling cap). */
export const LIVE_ROWS_KEPT = 60;
