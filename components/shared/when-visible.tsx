"use client";
// Draws its children once they come near the viewport, one such drawing per
// task, and holds them still while they are far off-screen. A chart below the
// fold costs nothing until someone scrolls to it (nor while scrolled away), and
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
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    if (typeof IntersectionObserver === "undefined")
      return schedule(() => {
        setNear(true);
        setShown(true);
      });
    let cancelled = false;
    // Kept after the first drawing: off-screen, the drawing holds still (a live loop's
    // new points redraw only what can be seen) and catches up when it comes back.
    const observer = new IntersectionObserver(
      (entries) => {
        const on = entries.some((e) => e.isIntersecting);
        setNear(on);
        if (on) schedule(() => !cancelled && setShown(true));
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [margin]);
  return (
    <div ref={box} className="h-full w-full">
      {shown && <Held hold={!near}>{children}</Held>}
    </div>
  );
}
