// The agent's stdout kept for its iteration's transcript (the conversation
// the iteration detail draws; lib/transcript reads it). Bounded whatever the
// agent prints:
// - a JSON line too long is shortened inside its strings, so it stays JSON
//   (a cut line could not be read as the event it was);
// - Claude Code's streamed deltas are left out once the message they built
//   arrives whole (its `assistant` line says the same in one line); the deltas
//   of a message cut short are kept, so its partial text still shows;
// - past the character budget, the first lines and the newest are kept and
//   the ones between counted.

/** Per line, and for the whole transcript. */
export const TRANSCRIPT_LINE_CHARS = 4_000;
const HEAD_CHARS = 64_000;
const TAIL_CHARS = 192_000;
const STRING_CHARS = 1_000;

export interface KeptTranscript {
  lines: string[];
  /** Lines printed but left out by the budget (deltas superseded by whole messages are not counted). */
  skipped: number;
}

/** Long strings and arrays inside a JSON value shortened, with a note of what was left out. */
function shorten(value: unknown, chars: number, items: number): unknown {
  if (typeof value === "string")
    return value.length > chars ? `${value.slice(0, chars)}… (${value.length - chars} more characters)` : value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, items).map((v) => shorten(v, chars, items));
    return value.length > items ? [...kept, `… (${value.length - items} more)`] : kept;
  }
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, chars, items)]));
  return value;
}

/** A line within `max` characters: a JSON line stays valid JSON when its strings and lists can be shortened enough. */
export function compactLine(line: string, max: number = TRANSCRIPT_LINE_CHARS): string {
  if (line.length <= max) return line;
  if (line.trimStart().startsWith("{")) {
    try {
      const value: unknown = JSON.parse(line);
      // Strings first (a tool result), then long lists too (Claude Code's init lists every tool and command).
      for (
        let chars = Math.min(STRING_CHARS, max), items = 64;
        chars >= 40;
        chars = Math.floor(chars / 4), items = Math.floor(items / 4)
      ) {
        const json = JSON.stringify(shorten(value, chars, Math.max(items, 1)));
        if (json.length <= max) return json;
      }
    } catch {
      // not JSON after all: cut below
    }
  }
  return `${line.slice(0, max)}…`;
}

const isStreamEvent = (line: string) => line.startsWith('{"type":"stream_event"');
const isAssistant = (line: string) => line.startsWith('{"type":"assistant"');

export class TranscriptLines {
  private readonly head: string[] = [];
  private headChars = 0;
  private tail: string[] = [];
  private tailChars = 0;
  private skipped = 0;
  /** Claude Code deltas of the message being written, until it arrives whole. */
  private pending: string[] = [];

  line(raw: string): void {
    if (!raw.trim()) return;
    const line = compactLine(raw);
    if (isStreamEvent(line)) {
      // Bounded like the rest: a message that never completes keeps its newest deltas.
      this.pending.push(line);
      if (this.pending.length > 2_000) this.pending.shift();
      return;
    }
    if (isAssistant(line)) this.pending = [];
    else this.flushPending();
    this.keep(line);
  }

  private flushPending() {
    const pending = this.pending;
    this.pending = [];
    for (const line of pending) this.keep(line);
  }

  private keep(line: string) {
    if (this.tail.length === 0 && this.headChars + line.length <= HEAD_CHARS) {
      this.head.push(line);
      this.headChars += line.length;
      return;
    }
    this.tail.push(line);
    this.tailChars += line.length;
    while (this.tailChars > TAIL_CHARS && this.tail.length > 1) {
      this.tailChars -= this.tail.shift()!.length;
      this.skipped++;
    }
  }

  /** What is kept, or null when the agent printed nothing. */
  take(): KeptTranscript | null {
    this.flushPending();
    if (this.head.length === 0 && this.tail.length === 0) return null;
    return { lines: [...this.head, ...this.tail], skipped: this.skipped };
  }
}
