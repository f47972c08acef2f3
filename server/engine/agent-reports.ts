/**
 * What an agent reports while it runs, and what a reflection says about an
 * iteration: plain data shared by the ports and the events, kept in a file of
 * its own so the two never import each other.
 */
/** Streamed while the agent runs; any event counts as a heartbeat. */
export type AgentProgressEvent =
  | { kind: "heartbeat" }
  | { kind: "progress"; message?: string }
  | { kind: "tool_call"; name: string }
  | { kind: "log"; message: string }
  /** One line the agent printed (scrubbed by the adapter); a heartbeat, not progress. `skipped`: lines
   *  left out before it (a flood is thinned). */
  | { kind: "output"; text: string; skipped?: number };

export interface Reflection {
  summary: string;
  keyFindings: string[];
  rootCauses: string[];
  insights: string[];
  suggestions: string[];
}
