/**
 * Unified diffs of a loop's commits: the patch against the baseline, and the
 * per-iteration diff, capped at a size with a visible note.
 */
import { git } from "./git-cli";

/** The unified diff from `from` to `to` (binary files named, not shown). */
export function diffPatch(dir: string, from: string, to = "HEAD"): Promise<string> {
  return git(dir, ["diff", "--no-color", "--no-ext-diff", "-M", from, to]);
}

/** Default cap of a stored per-iteration diff. */
export const DIFF_CAP_BYTES = 1024 * 1024;

export interface CappedDiff {
  text: string;
  /** The diff was longer than the cap and cut at a line end (the text ends with a note saying so). */
  truncated: boolean;
}

/** Cuts a diff to `maxBytes` at a line end, with a visible note; short ones are returned as they are. */
export function capDiff(text: string, maxBytes = DIFF_CAP_BYTES): CappedDiff {
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return { text, truncated: false };
  const head = Buffer.from(text).subarray(0, maxBytes).toString("utf8");
  const cut = head.lastIndexOf("\n");
  const kept = cut >= 0 ? head.slice(0, cut + 1) : "";
  return { text: `${kept}… [diff cut at ${maxBytes} bytes of ${bytes}]\n`, truncated: true };
}
