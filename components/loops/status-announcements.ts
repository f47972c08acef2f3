// What a screen reader hears when a loop's state changes (WCAG 4.1.3): one
// sentence for the loop page, one throttled summary for the list.
import { statusDisplay, type LoopStatusName } from "@/components/loops/format";

export interface AnnouncedLoop {
  status: LoopStatusName;
  iteration: number;
  name?: string | null;
  goal?: string;
  stopReason?: string | null;
}

/** The sentence for a loop page when its status went from `prev` to `next`; null when nothing worth saying changed. */
export function statusAnnouncement(prev: string | null, next: AnnouncedLoop): string | null {
  if (prev === null || prev === next.status) return null;
  const n = next.iteration;
  const reason = next.stopReason ? `: ${next.stopReason}` : "";
  switch (next.status) {
    case "paused":
      return `Loop paused after iteration ${n}`;
    case "running":
      return prev === "paused" ? `Loop resumed at iteration ${n + 1}` : "Loop running";
    case "completed":
      return `Loop completed after iteration ${n}${reason}`;
    case "failed":
      return `Loop failed after iteration ${n}${reason}`;
    case "awaiting_approval":
      return `Needs attention: awaiting approval after iteration ${n}`;
    case "needs_attention":
      return `Needs attention: ${next.stopReason || "the agent asked a question"}`;
    default:
      return `Loop ${statusDisplay(next.status).label}`;
  }
}

/** One line naming the loops whose status changed since `seen` (which it updates); null when none did. */
export function listChangeSummary(
  seen: Map<string, string>,
  items: readonly ({ id: string } & AnnouncedLoop)[],
): string | null {
  const changes: string[] = [];
  for (const loop of items) {
    const before = seen.get(loop.id);
    seen.set(loop.id, loop.status);
    if (before !== undefined && before !== loop.status) {
      const name = loop.name || loop.goal || "a loop";
      changes.push(`${name.length > 60 ? `${name.slice(0, 57)}…` : name} ${statusDisplay(loop.status).label}`);
    }
  }
  if (changes.length === 0) return null;
  const shown = changes.slice(0, 3).join("; ");
  const more = changes.length > 3 ? `; and ${changes.length - 3} more` : "";
  return `${changes.length === 1 ? "1 loop changed" : `${changes.length} loops changed`}: ${shown}${more}`;
}
