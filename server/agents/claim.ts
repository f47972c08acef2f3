import type { AgentClaim } from "../engine";

// The Ralph convention: the agent prints <promise>COMPLETE</promise> when it
// believes it is done. The engine never trusts this alone; it is recorded so
// claim/evidence mismatches (an agent lying about completion) are visible.
// The loop may configure another signal (completion.signal): a tag such as
// <done>SHIPPED</done> is read as that tag with any inner text, anything
// else as a literal phrase.
export const DEFAULT_SIGNAL = "<promise>COMPLETE</promise>";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function lastTag(output: string, tag: string): string | undefined {
  let last: string | undefined;
  for (const match of output.matchAll(new RegExp(`<${escape(tag)}>([\\s\\S]*?)</${escape(tag)}>`, "gi")))
    last = match[1];
  return last;
}

export function detectClaim(output: string, explicit?: AgentClaim, signal: string = DEFAULT_SIGNAL): AgentClaim {
  if (explicit) return explicit;
  const tag = /^<([A-Za-z][\w-]{0,40})>[\s\S]*<\/\1>$/.exec(signal.trim())?.[1];
  if (tag === undefined) {
    return output.includes(signal) ? { done: true, text: signal } : { done: false };
  }
  const last = lastTag(output, tag);
  if (last === undefined) return { done: false };
  const text = last.trim();
  return text ? { done: true, text } : { done: false };
}

/** Accepts `true`, `"COMPLETE"` or `{ done, text }` from a CLI's JSON or a webhook reply. */
export function claimFromValue(value: unknown): AgentClaim | undefined {
  if (typeof value === "boolean") return { done: value };
  if (typeof value === "string") return value.trim() ? { done: true, text: value.trim() } : undefined;
  if (typeof value === "object" && value !== null && typeof (value as { done?: unknown }).done === "boolean") {
    const { done, text } = value as { done: boolean; text?: unknown };
    return typeof text === "string" ? { done, text } : { done };
  }
  return undefined;
}
