"use client";
// Draws its children once they come near the viewport, one such drawing per
// task. A chart below the fold costs nothing until someone scrolls to it, and
// charts that appear together do not become one long main-thread task (each
// Recharts chart takes tens of ms to draw). The box it fills keeps its size
// throughout, so nothing shifts when the drawing arrives.
import { useEffect, useRef, useState, type ReactNode } from "react";

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

export function WhenVisible({ children, margin = "200px" }: { children: ReactNode; margin?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (shown || !el) return;
    if (typeof IntersectionObserver === "undefined") return schedule(() => setShown(true));
    let cancelled = false;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        schedule(() => !cancelled && setShown(true));
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [shown, margin]);
  return shown ? <>{children}</> : <div ref={box} className="h-full w-full" />;
}
