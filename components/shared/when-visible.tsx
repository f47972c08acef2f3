"use client";
// Draws its children once they come near the viewport, one such drawing per
// task, and holds them still while they are far off-screen. A chart below the
// fold costs nothing until someone scrolls to it (nor while out of view: it is
// drawn ahead, within `margin`, but redrawn only while some of it is in the
// viewport itself, where a live loop's redraw can be seen), and
// charts that appear together do not become one long main-thread task (each
// Recharts chart takes tens of ms to draw). The box it fills keeps its size
// throughout, so nothing shifts when the drawing arrives.
import { memo, useEffect, useRef, useState, type ReactNode } from "react";

const queue: (() => void)[] = [];
let draining = false;

function drainOneAtATime() {
  const next = queue.shift();
  if (!next) return void (draining = false);
  next();
  setTimeout(drainOneAtATime, 0);
}

function schedule(show: () => void) {
  queue.push(show);
  if (!draining) {
    draining = true;
    setTimeout(drainOneAtATime, 0);
  }
}

/** Keeps its last children while `hold` is set: React skips the subtree, so nothing in it redraws. */
const Held = memo(
  function Held({ children }: { children: ReactNode; hold: boolean }) {
    return <>{children}</>;
  },
  (_, next) => next.hold,
);

export function WhenVisible({ children, margin = "200px" }: { children: ReactNode; margin?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    if (typeof IntersectionObserver === "undefined")
      return schedule(() => {
        setInView(true);
        setShown(true);
      });
    let cancelled = false;
    // The first drawing, ahead of the viewport.
    const near = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) schedule(() => !cancelled && setShown(true));
      },
      { rootMargin: margin },
    );
    // Kept after the first drawing: out of view, the drawing holds still (a live loop's
    // new points redraw only what can be seen) and catches up as it comes into view.
    const seen = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)));
    near.observe(el);
    seen.observe(el);
    return () => {
      cancelled = true;
      near.disconnect();
      seen.disconnect();
    };
  }, [margin]);
  return (
    <div ref={box} className="h-full w-full">
      {shown && <Held hold={!inView}>{children}</Held>}
    </div>
  );
}
