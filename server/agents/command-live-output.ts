/**
 * What a command attempt sends to the live view while it runs: progress events
 * (scrubbed, heartbeats thinned past the first thousand lines) and its output
 * lines (thinned the same way, the last one always sent).
 */
import type { AgentProgressEvent, AgentRunRequest } from "../engine";
import { scrubDeep } from "./redact";
import { compactLine } from "./transcript-lines";

/** Past this many lines a flood must not become an event flood: heartbeats are thinned. */
const FREE_HEARTBEATS = 1000;
const THINNED_HEARTBEAT_MS = 100;
const MAX_LIVE_LINE = 2000;

export function progressEmitter(onProgress: AgentRunRequest["onProgress"], secrets: readonly string[]) {
  let lines = 0;
  let lastBeat = 0;
  return (event: AgentProgressEvent) => {
    if (event.kind === "heartbeat" && ++lines > FREE_HEARTBEATS) {
      const now = performance.now();
      if (now - lastBeat < THINNED_HEARTBEAT_MS) return;
      lastBeat = now;
    }
    try {
      // Tool names and messages come from the agent's output: events are stored, so they are scrubbed too.
      onProgress(event.kind === "heartbeat" ? event : scrubDeep(event, secrets));
    } catch {
      // a failing listener must not break the agent's output stream
    }
  };
}

/**
 * Output lines for the live view, thinned like heartbeats past the first
 * thousand: the lines left out are counted on the next one sent, and the
 * last line is always sent (flush) so the tail ends where the agent did.
 */
export function outputLines(emit: (event: AgentProgressEvent) => void) {
  let lines = 0;
  let last = 0;
  let skipped = 0;
  let pending: string | null = null;
  // A held-back line goes out soon even if the agent then goes quiet.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = (text: string) => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    // A JSON line stays JSON (its long strings shortened), so the live transcript can still read it.
    const cut = compactLine(text, MAX_LIVE_LINE);
    emit({ kind: "output", text: cut, ...(skipped > 0 ? { skipped } : {}) });
    skipped = 0;
    pending = null;
  };
  return {
    line(text: string) {
      if (++lines > FREE_HEARTBEATS) {
        const now = performance.now();
        if (now - last < THINNED_HEARTBEAT_MS) {
          if (pending !== null) skipped++;
          pending = text;
          timer ??= setTimeout(() => {
            timer = undefined;
            last = performance.now();
            if (pending !== null) send(pending);
          }, THINNED_HEARTBEAT_MS);
          return;
        }
        last = now;
        if (pending !== null) skipped++;
      }
      send(text);
    },
    flush() {
      if (pending !== null) send(pending);
    },
  };
}
