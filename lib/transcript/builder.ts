// The growing list of entries, keyed so a later line can complete an earlier
// entry (a streamed text, a tool call's result). Bounded: the oldest entries
// go past CAPS.entries, every text is capped.
import { CAPS, type TranscriptEntry, type TranscriptFormat } from "./types";

type Kind = TranscriptEntry["kind"];
export type EntryOf<K extends Kind> = Extract<TranscriptEntry, { kind: K }>;

export class TranscriptBuilder {
  format: TranscriptFormat = "plain";
  /** The agent's working folder, when the CLI said (paths are shown relative to it). */
  cwd: string | null = null;
  readonly entries: TranscriptEntry[] = [];
  dropped = 0;
  private readonly byKey = new Map<string, TranscriptEntry>();
  private seq = 0;
  /** Tool call id → entry key (a result arrives later, on another line). */
  readonly tools = new Map<string, string>();

  nextKey(prefix: string): string {
    return `${prefix}#${++this.seq}`;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  get<K extends Kind>(key: string, kind: K): EntryOf<K> | undefined {
    const e = this.byKey.get(key);
    return e && e.kind === kind ? (e as EntryOf<K>) : undefined;
  }

  /** The entry under `key`, made by `make` (and appended) the first time. */
  upsert<K extends Kind>(key: string, kind: K, make: () => Omit<EntryOf<K>, "key" | "kind">): EntryOf<K> {
    const found = this.get(key, kind);
    if (found) return found;
    const entry = { key, kind, ...make() } as EntryOf<K>;
    this.push(entry);
    return entry;
  }

  push(entry: TranscriptEntry): void {
    this.entries.push(entry);
    this.byKey.set(entry.key, entry);
    while (this.entries.length > CAPS.entries) {
      const gone = this.entries.shift()!;
      this.byKey.delete(gone.key);
      this.dropped++;
    }
  }

  /** Consecutive unreadable lines share one entry. */
  raw(line: string): void {
    const last = this.entries.at(-1);
    const text = line.length > CAPS.raw ? `${line.slice(0, CAPS.raw)}…` : line;
    if (last?.kind === "raw" && last.text.length < CAPS.input) last.text += `\n${text}`;
    else this.push({ key: this.nextKey("raw"), kind: "raw", text });
  }
}

/** Appends a streamed piece while under the cap. */
export function appendCapped(current: string, piece: string, max: number): string {
  if (current.length >= max) return current;
  const next = current + piece;
  return next.length > max ? `${next.slice(0, max)}…` : next;
}
