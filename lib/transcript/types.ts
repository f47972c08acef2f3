// The agent's turn as a conversation: what the transcript model makes of a
// Claude Code (stream-json) or Codex (exec --json) stdout, line by line.
// Plain data, so the live card and the iteration detail draw the same thing.

/** Whose protocol the lines spoke; `plain` for any other command (shown as text). */
export type TranscriptFormat = "claude-code" | "codex" | "plain";

export type ToolStatus = "running" | "ok" | "error";

interface Keyed {
  /** Stable across re-derivations of a growing stream (a React key). */
  key: string;
}

export type TranscriptEntry = Keyed &
  (
    | { kind: "session"; text: string }
    | { kind: "text"; text: string; streaming: boolean }
    | { kind: "reasoning"; text: string; streaming: boolean }
    | {
        kind: "tool";
        name: string;
        /** One line: the command, the file, the pattern… */
        summary: string;
        /** The call's input, pretty and capped (shown when expanded). */
        input: string;
        status: ToolStatus;
        result: string | null;
        /** Exit code of a shell command, when the CLI reported one. */
        exitCode?: number | null;
      }
    | { kind: "retry"; text: string }
    | { kind: "error"; text: string }
    | { kind: "notice"; text: string }
    | { kind: "todo"; items: { text: string; done: boolean }[] }
    | { kind: "result"; ok: boolean; text: string; detail: string }
    /** A line of a structured stream that was not one of its events (cut short, or printed by something else). */
    | { kind: "raw"; text: string }
  );

export interface Transcript {
  format: TranscriptFormat;
  entries: TranscriptEntry[];
  /** Entries dropped from the front by the entry cap. */
  droppedEntries: number;
}

/** Caps: one transcript stays small however much the agent printed. */
export const CAPS = {
  entries: 400,
  text: 20_000,
  result: 4_000,
  input: 2_000,
  summary: 120,
  raw: 300,
} as const;
