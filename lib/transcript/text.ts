// Small text helpers for the transcript: caps, one-line summaries, paths.

export type Json = Record<string, unknown>;

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const obj = (v: unknown): Json | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** At most `max` characters, with a note of how many were left out. */
export function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${(text.length - max).toLocaleString("en-US")} more characters)`;
}

/** The first non-empty line, at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const first =
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? "";
  const more = text.trim().includes("\n") ? " …" : "";
  return first.length > max ? `${first.slice(0, max - 1)}…` : `${first}${more}`;
}

/** A path relative to the agent's working folder when it lies inside it. */
export function relPath(path: string, cwd: string | null): string {
  const root = cwd?.replace(/\/+$/, "");
  if (root && path.startsWith(`${root}/`)) return path.slice(root.length + 1);
  // Not knowing the folder (Codex does not say), a long absolute path keeps its last three parts.
  const parts = path.split("/");
  return !root && path.startsWith("/") && parts.length > 4 ? `…/${parts.slice(-3).join("/")}` : path;
}

/** A value as the expanded view shows it: strings as they are, the rest as indented JSON. */
export function pretty(value: unknown, max: number): string {
  if (typeof value === "string") return cap(value, max);
  try {
    return cap(JSON.stringify(value, null, 2) ?? "", max);
  } catch {
    return "";
  }
}

/** Codex runs commands as `/bin/bash -lc '<command>'`: the command is what the agent meant. */
export function unwrapShell(command: string): string {
  const m = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z)?sh\s+-l?c\s+(['"])([\s\S]*)\1$/.exec(command.trim());
  const [, quote, inner] = m ?? [];
  if (inner === undefined) return command;
  return quote === "'" ? inner.replaceAll(`'\\''`, "'") : inner;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
