// The transcript model: an agent's stdout lines -> the conversation the live
// card and the iteration detail draw. Pure and bounded (see CAPS), so the
// browser can re-derive it from a growing tail on every batch. Claude Code's
// stream-json and Codex's exec --json are read; any other output is `plain`
// (the page keeps its text view). Text stays text: nothing here is HTML.
import { TranscriptBuilder } from "./builder";
import { claudeLine, ClaudeState, CLAUDE_TYPES } from "./claude";
import { codexLine, CODEX_TYPES } from "./codex";
import { obj, str } from "./text";
import type { Transcript, TranscriptFormat } from "./types";

export type { Transcript, TranscriptEntry, TranscriptFormat } from "./types";
export { CAPS } from "./types";

function parse(line: string): Record<string, unknown> | undefined {
  const text = line.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    return obj(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Which CLI printed this event, if either. */
export function formatOf(event: Record<string, unknown>): TranscriptFormat {
  const type = str(event.type) ?? "";
  // `error` is Codex's top-level event; Claude's stream has no such line.
  if (CODEX_TYPES.has(type) && (type !== "error" || typeof event.message === "string")) return "codex";
  if (CLAUDE_TYPES.has(type)) return "claude-code";
  return "plain";
}

/** Lines, oldest first -> entries. A line cut short or not JSON shows as a raw line. */
export function transcriptOf(lines: readonly string[]): Transcript {
  const b = new TranscriptBuilder();
  const claude = new ClaudeState();
  for (const line of lines) {
    if (!line.trim()) continue;
    const event = parse(line);
    const format = event ? formatOf(event) : "plain";
    if (!event || format === "plain") {
      b.raw(line);
      continue;
    }
    if (b.format === "plain") b.format = format;
    if (format === "claude-code") claudeLine(b, claude, event);
    else codexLine(b, event);
  }
  // Raw lines before the protocol was recognised are noise of a plain stream: a plain view is shown instead.
  return { format: b.format, entries: b.format === "plain" ? [] : b.entries, droppedEntries: b.dropped };
}
