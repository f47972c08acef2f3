// Folds the live rows the event stream brings into the view `loops.live`
// returned, so the page shows output as it is printed without a refetch.
// Pure, unit-tested; mirrors server/loops/live-iteration.service.ts.
import type { RouterOutputs } from "@/components/shared/api-types";

export type LiveView = NonNullable<RouterOutputs["loops"]["live"]>;

import { LIVE_EVENT_TYPE } from "@/components/loops/live-list";

export { LIVE_EVENT_TYPE };
export const LIVE_TAIL_LINES = 200;
const LIVE_TOOLS = 30;

type Payload = Omit<LiveView, "lastEventId">;

function isPayload(value: unknown): value is Payload {
  const p = value as Partial<Payload> | null;
  return !!p && typeof p.iteration === "number" && Array.isArray(p.lines) && Array.isArray(p.tools);
}

/** The view after one streamed live row; the same view when the row is old or not a live row. */
export function foldLiveEvent(
  view: LiveView | null | undefined,
  event: { id: number; type: string; payload: unknown },
): LiveView | null | undefined {
  if (event.type !== LIVE_EVENT_TYPE || !isPayload(event.payload)) return view;
  const p = event.payload;
  if (view && event.id <= view.lastEventId) return view;
  // A later iteration (or a new attempt) starts a fresh view.
  const same = view && view.iteration === p.iteration && view.agentId === p.agentId;
  const lines = [...(same ? view.lines : []), ...p.lines].slice(-LIVE_TAIL_LINES);
  const tools = [...(same ? view.tools : []), ...p.tools].slice(-LIVE_TOOLS);
  return {
    ...p,
    lines,
    tools,
    skippedLines: Math.max(0, p.totalLines - lines.length),
    lastEventId: event.id,
  };
}
