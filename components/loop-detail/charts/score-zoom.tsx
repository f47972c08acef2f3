"use client";
// Zooming into the score chart. The whole loop is drawn from the detail's
// downsampled series; a zoom (dragging across the chart, or the form under it,
// which keyboards reach) asks the server for iterations from..to, which come
// back at full resolution (every attempt) up to SERIES_POINTS iterations and
// downsampled the same way beyond. "Whole loop" goes back.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Fragment, useId, useMemo, useRef, useState, type FormEvent, type PointerEvent } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { zoomWindow } from "@/lib/charts/chart-window";
import type { ChartInput } from "@/lib/charts/types";
import { Button } from "@/components/ui/button";
import { ScoreChart } from "./score-chart";

// The form's two ends of the zoom, drawn by one markup.
const ZOOM_ENDS = [
  { end: "from", label: "First iteration", placeholder: "from #" },
  { end: "to", label: "Last iteration", placeholder: "to #" },
] as const;

export function ZoomableScoreChart({
  loopId,
  series,
  threshold,
  events,
  xRange,
  plateauAfter,
}: ChartInput & {
  loopId: string;
  threshold: number | null;
  plateauAfter?: number;
}) {
  const trpc = useTRPC();
  const [zoom, setZoom] = useState<{ from: number; to: number } | null>(null);
  const windowed = useQuery({
    ...trpc.loops.series.queryOptions({ id: loopId, from: zoom?.from ?? 1, to: zoom?.to ?? 1 }),
    enabled: zoom !== null,
    placeholderData: keepPreviousData,
  });
  const shown = zoom && windowed.data ? windowed.data : null;
  const range = useMemo(() => (shown ? zoomWindow(shown.from, shown.to) : xRange), [shown, xRange]);
  const formId = useId();
  const [draft, setDraft] = useState({ from: "", to: "" });
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const frame = useRef<HTMLDivElement>(null);

  /** The iteration under the pointer, from the plot area's box (the grid) and the x domain drawn. */
  function iterationAt(clientX: number): number | null {
    const grid = frame.current?.querySelector(".recharts-cartesian-grid")?.getBoundingClientRect();
    if (!grid || grid.width <= 0) return null;
    const [lo, hi] = range.domain;
    const x = Math.min(1, Math.max(0, (clientX - grid.left) / grid.width));
    return Math.max(1, Math.round(lo + x * (hi - lo)));
  }
  function onPointerDown(e: PointerEvent) {
    if (e.button !== 0) return;
    const n = iterationAt(e.clientX);
    if (n !== null) setDrag({ from: n, to: n });
  }
  function onPointerMove(e: PointerEvent) {
    const n = drag ? iterationAt(e.clientX) : null;
    if (drag && n !== null && n !== drag.to) setDrag({ ...drag, to: n });
  }
  function onPointerUp() {
    if (drag && drag.from !== drag.to) apply(drag.from, drag.to);
    setDrag(null);
  }

  function apply(from: number, to: number) {
    const lo = Math.max(1, Math.min(from, to));
    const hi = Math.max(lo, Math.max(from, to));
    setZoom({ from: lo, to: hi });
    setDraft({ from: String(lo), to: String(hi) });
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    const from = Number(draft.from);
    const to = Number(draft.to);
    if (Number.isInteger(from) && Number.isInteger(to) && from >= 1 && to >= 1) apply(from, to);
  }

  return (
    <div className="min-w-0" data-testid="score-zoom" data-zoom={shown ? `${shown.from}-${shown.to}` : undefined}>
      {/* Pointer-only: the form below does the same from a keyboard. */}
      <div
        ref={frame}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => setDrag(null)}
        className="select-none"
      >
        <ScoreChart
          series={shown ? shown.points : series}
          threshold={threshold}
          events={events}
          xRange={range}
          plateauAfter={plateauAfter}
          selection={drag}
        />
      </div>
      <form
        onSubmit={submit}
        aria-label="Zoom the score chart"
        className="mt-1 flex flex-wrap items-center gap-2 px-1 text-xs text-slate-600 dark:text-slate-400"
      >
        <span>
          {shown
            ? `#${shown.from}–#${shown.to}${shown.bucketSize > 1 ? `, a point per up to ${shown.bucketSize} iterations` : ", every iteration"}`
            : "Drag across the chart, or zoom to"}
        </span>
        {ZOOM_ENDS.map(({ end, label, placeholder }) => (
          <Fragment key={end}>
            <label htmlFor={`${formId}-${end}`} className="sr-only">
              {label}
            </label>
            <input
              id={`${formId}-${end}`}
              inputMode="numeric"
              placeholder={placeholder}
              value={draft[end]}
              onChange={(e) => setDraft((d) => ({ ...d, [end]: e.target.value }))}
              className="w-20 rounded border border-slate-300 bg-white px-1.5 py-0.5 tabular-nums dark:border-slate-700 dark:bg-slate-900"
            />
          </Fragment>
        ))}
        <Button type="submit" variant="secondary" size="sm">
          Zoom
        </Button>
        {zoom && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => {
              setZoom(null);
              setDraft({ from: "", to: "" });
            }}
          >
            Whole loop
          </Button>
        )}
        {windowed.isFetching && zoom && <span role="status">loading…</span>}
      </form>
    </div>
  );
}
