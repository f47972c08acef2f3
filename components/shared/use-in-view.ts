"use client";
// Whether an element is within `margin` of the viewport, for parts of a live
// page that need not follow the data while nobody can see them (a fetch, a
// render and a frame each time for nothing). Only while `watch` is set; off,
// and until the first observation, it counts as in view, so the server's HTML
// and the first render are what they would be without it. The element must
// be there from the first render (one box in every state).
import { useEffect, useRef, useState, type RefObject } from "react";

export function useInView<T extends Element>(watch: boolean, margin = "100px"): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [inView, setInView] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!watch || !el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)), {
      rootMargin: margin,
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [watch, margin]);
  return [ref, watch ? inView : true];
}
