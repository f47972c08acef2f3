import type { AgentClaim } from "../engine";

// The Ralph convention: the agent prints <promise>COMPLETE</promise> when it
// believes it is done. The engine never trusts this alone; it is recorded so
// claim/evidence mismatches (an agent lying about completion) are visible.
const PROMISE_TAG = /<promise>([\s\S]*?)<\/promise>/gi;

export function detectClaim(output: string, explicit?: AgentClaim): AgentClaim {
  if (explicit) return explicit;
  let last: string | undefined;
  for (const match of output.matchAll(PROMISE_TAG)) last = match[1];
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
