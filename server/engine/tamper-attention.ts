/**
 * Repeated evidence tampering: the graders restore what the agent touched and
 * grade on a clean tree, so one attempt is only recorded; the second
 * iteration caught tampering (this run or earlier, not necessarily in a row:
 * the count is the server's, kept where the agent cannot reach) pauses the
 * loop in needs_attention, and so does each one after an operator resumes it.
 * An agent that keeps attacking the evidence is spending the budget on it;
 * an operator decides whether it goes on.
 */
import type { EngineEvent } from "./events";
import type { LoopSnapshot } from "./snapshot";
import { ENGINE, setStatus, stamp } from "./transitions";

/** The iteration caught tampering at which (and after which) the loop waits for an operator. */
export const TAMPER_ATTENTION_AFTER = 2;

/** What the iteration just graded tampered with, and how many iterations have, when it did. */
export function tamperingOf(snapshot: LoopSnapshot): { what: string[]; iterations: number } | null {
  const graded = (snapshot.plan.tests ?? []).flatMap((c) => (c.grading ? [c.grading] : []));
  const caught = graded.filter((g) => g.tampering.length > 0);
  if (caught.length === 0) return null;
  const what = [...new Set(caught.flatMap((g) => g.tampering.map((t) => t.what)))];
  return { what, iterations: Math.max(1, ...caught.map((g) => g.tamperedIterations ?? 1)) };
}

/** The loop paused in needs_attention when the iteration just run was at least the second caught tampering. */
export function tamperAttention(snapshot: LoopSnapshot, now: number, events: EngineEvent[]): LoopSnapshot {
  const found = tamperingOf(snapshot);
  if (!found || found.iterations < TAMPER_ATTENTION_AFTER) return snapshot;
  const shown =
    found.what.slice(0, 10).join(", ") + (found.what.length > 10 ? `, +${found.what.length - 10} more` : "");
  const reason =
    `iteration ${snapshot.state.iteration} tampered with the evidence again (${shown}); ` +
    `${found.iterations} iterations have: the loop waits for an operator`;
  events.push(
    stamp(snapshot, now, ENGINE, reason, {
      type: "tamper_needs_attention",
      iterations: found.iterations,
      tampered: found.what.slice(0, 50),
    }),
  );
  const paused = { ...snapshot, pause: snapshot.pause ?? { text: reason, by: ENGINE, at: now } };
  return setStatus(paused, "needs_attention", now, ENGINE, reason, events);
}
