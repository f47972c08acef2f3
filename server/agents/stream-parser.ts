import type { AgentClaim, AgentProgressEvent, AgentProgressReport, TokenUsage } from "../engine";

/** What a preset understood from one CLI run. */
export interface ParsedRun {
  output: string;
  usage: TokenUsage | null;
  /** Part of usage.input written to a prompt cache (priced differently). */
  cacheWriteTokens: number;
  costUsd: number | null;
  toolCalls: string[];
  claim?: AgentClaim;
  progress?: AgentProgressReport;
  /** A structured question to the operator (the CLI's ask tool), when the agent used one. */
  question?: string;
  /** The CLI reported failure in-band (e.g. a result with is_error). */
  error: string | null;
  /**
   * The stream itself fell short, whatever the exit code says: `no_result` when
   * it ended without its final event (Claude Code's result, Codex's
   * turn.completed), `malformed` when no line of it was the CLI's protocol.
   */
  incomplete?: { kind: "no_result" | "malformed"; message: string } | null;
  /**
   * The agent's own final status says the provider's usage limit was hit: its
   * words, for the engine to read the reset time from. Never set from tool
   * results or files the agent read, only from its final result or message.
   */
  usageLimit?: string | null;
  /** What the stream said about the limit as data (reset epoch ms, window, % used), with usageLimit. */
  limitInfo?: StreamLimitInfo | null;
  meta: Record<string, unknown>;
  warnings: string[];
}

export interface StreamLimitInfo {
  resetAt: number | null;
  window: string | null;
  usedPercent: number | null;
}

export type Emit = (event: AgentProgressEvent) => void;

/** What the agent reported spending so far (cost null: not reported, price it from the usage). */
export interface PartialSpend {
  usage: TokenUsage;
  costUsd: number | null;
  cacheWriteTokens: number;
  /** The model the agent says it runs (Claude's init event): prices a killed run when the loop names none. */
  model?: string;
}

/** Streaming: sees every stdout line (even past the output cap), keeps bounded state. */
export interface StreamParser {
  line(line: string, emit: Emit): void;
  finish(keptStdout: string): ParsedRun;
  /** The spend reported so far, or null before any report; kept so a crash mid-run does not lose it. */
  spend(): PartialSpend | null;
  /** The tool calls seen so far: a run killed mid-turn keeps what the agent already did. */
  toolCallsSoFar(): string[];
}

/** What a preset may derive its arguments from (the loop's agent config, and whether it runs sandboxed). */
export interface PresetArgsContext {
  model: string | undefined;
  /** The config's fixed variables (`env`), e.g. a provider base URL. */
  env: Readonly<Record<string, string>>;
  /** Names of the variables the secrets are passed as. */
  secretNames: readonly string[];
  sandboxed: boolean;
  extraArgs: readonly string[];
}

export interface PresetArgs {
  /** Added after the preset's argv. */
  args: string[];
  /** The operator's extraArgs, less any the installed CLI no longer accepts. */
  extraArgs: string[];
  warnings: string[];
}

/** The CLI versions a preset's flags and parser are written for (`<cli> --version`). */
export interface PresetVersions {
  /** Reads the version from `--version` output. */
  parse: RegExp;
  /** Older versions are refused (their flags or output differ). */
  min: string;
  /** Checked against the real binary in the test suite; newer ones get a warning. */
  verified: string;
}

export interface CommandPresetSpec {
  argv: readonly string[];
  parser(maxChars: number): StreamParser;
  args?(ctx: PresetArgsContext): PresetArgs;
  versions?: PresetVersions;
}

/** The value following the last `-m`/`--model` (or `--model=`) in argv, if any. */
export function modelArg(argv: readonly string[]): string | undefined {
  let model: string | undefined;
  argv.forEach((a, i) => {
    if ((a === "-m" || a === "--model") && argv[i + 1] !== undefined) model = argv[i + 1];
    else if (a.startsWith("--model=")) model = a.slice("--model=".length);
  });
  return model;
}

export type JsonObject = Record<string, unknown>;

/** A JSON object line, or undefined for anything else (plain text, garbage, arrays). */
export function jsonLine(line: string): JsonObject | undefined {
  const text = line.trim();
  if (text.charCodeAt(0) !== 123 /* { */) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

export const num = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
export const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
export const obj = (value: unknown): JsonObject | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;

/**
 * A CLI's JSONL event stream as both presets read it: each line is an event or is counted as
 * unparsed (the first few kept as a sample), and every tool call is kept, so a run killed mid-turn
 * still shows what the agent did.
 */
export class JsonEventStream {
  events = 0;
  unparsedLines = 0;
  readonly unparsedSample: string[] = [];
  readonly toolCalls: string[] = [];

  /** The line's event; null for anything else, which still counts as activity (a heartbeat). */
  read(line: string, emit: Emit): JsonObject | null {
    const event = jsonLine(line);
    if (event) {
      this.events++;
      return event;
    }
    if (line.trim()) {
      this.unparsedLines++;
      if (this.unparsedSample.length < 3) this.unparsedSample.push(line.length > 200 ? `${line.slice(0, 200)}…` : line);
    }
    emit({ kind: "heartbeat" });
    return null;
  }

  toolCall(name: string, emit: Emit): void {
    this.toolCalls.push(name);
    emit({ kind: "tool_call", name });
  }

  /**
   * Why a stream that never printed its final event is incomplete: `malformed` when no line was an
   * event at all (the CLI ran without its JSON flags: `hint` says which), else `no_result`.
   */
  incomplete(cli: string, format: string, hint: string, noResult: string): NonNullable<ParsedRun["incomplete"]> {
    if (this.events > 0 || this.unparsedLines === 0) return { kind: "no_result", message: noResult };
    const lines = `${this.unparsedLines} line${this.unparsedLines === 1 ? "" : "s"}`;
    return { kind: "malformed", message: `${cli} printed ${lines} but no ${format} event (${hint})` };
  }
}

/** Appends while under `max` characters; reports whether anything was cut. */
export class CappedText {
  private parts: string[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly max: number) {}
  push(text: string): void {
    if (this.size >= this.max) {
      this.truncated = true;
      return;
    }
    const room = this.max - this.size;
    const part = text.length <= room ? text : text.slice(0, room);
    if (part.length < text.length) this.truncated = true;
    this.parts.push(part);
    this.size += part.length;
  }
  join(separator: string): string {
    return this.parts.join(separator);
  }
  get empty(): boolean {
    return this.parts.length === 0;
  }
}
