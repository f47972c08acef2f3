"use client";
// Polite live regions for status changes. The region is in the page from the
// first render (a region inserted together with its text is often not read);
// only its text changes.
import { useEffect, useRef, useState } from "react";
import { listChangeSummary, statusAnnouncement, type AnnouncedLoop } from "./status-announcements";

function LiveRegion({ text, testId }: { text: string; testId: string }) {
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid={testId}>
      {text}
    </div>
  );
}

/** The loop page: "Loop paused after iteration 7" as it happens. */
export function LoopStatusAnnouncer({ loop }: { loop: AnnouncedLoop }) {
  const previous = useRef<string | null>(null);
  const [text, setText] = useState("");
  useEffect(() => {
    const sentence = statusAnnouncement(previous.current, loop);
    previous.current = loop.status;
    if (sentence) setText(sentence);
  }, [loop]);
  return <LiveRegion text={text} testId="status-announcer" />;
}

/** The list: at most one summary per `everyMs`, naming the loops that changed. */
export function ListStatusAnnouncer({
  items,
  everyMs = 5000,
}: {
  items: readonly ({ id: string } & AnnouncedLoop)[] | undefined;
  everyMs?: number;
}) {
  const seen = useRef(new Map<string, string>());
  const latest = useRef(items);
  const [text, setText] = useState("");
  useEffect(() => {
    latest.current = items;
  }, [items]);
  useEffect(() => {
    const timer = setInterval(() => {
      if (!latest.current) return;
      const summary = listChangeSummary(seen.current, latest.current);
      if (summary) setText(summary);
    }, everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  useEffect(() => {
    // The first page of results is the baseline, not news.
    if (items && seen.current.size === 0) listChangeSummary(seen.current, items);
  }, [items]);
  return <LiveRegion text={text} testId="list-announcer" />;
}
