"use client";
// The events streamed since the page opened, for the audit log. They live in
// a small store outside React state: an event re-renders the audit log (when
// its tab is open), not the whole loop page with its charts.
import { useState, useSyncExternalStore } from "react";
import type { AuditEvent } from "@/components/shared/api-types";
import { AuditLog } from "./audit-log";

const KEEP = 100;

export class LiveAuditBuffer {
  private events: AuditEvent[] = [];
  private readonly listeners = new Set<() => void>();

  push(event: AuditEvent) {
    this.events = [...this.events.slice(-(KEEP - 1)), event];
    this.listeners.forEach((l) => l());
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  snapshot = () => this.events;
}

export function useLiveAuditBuffer() {
  const [buffer] = useState(() => new LiveAuditBuffer());
  return buffer;
}

const none: AuditEvent[] = [];

export function LiveAuditLog({ loopId, buffer }: { loopId: string; buffer: LiveAuditBuffer }) {
  const live = useSyncExternalStore(buffer.subscribe, buffer.snapshot, () => none);
  return <AuditLog loopId={loopId} live={live} />;
}
