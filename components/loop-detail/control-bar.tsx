"use client";
// The operator controls valid in the loop's current state, as buttons in one
// bar (grouped run / steer / approval / manage); every other control sits in
// the "More" menu with the reason it cannot be used now. A button stays
// while its request is pending; when a focused one goes, focus moves to the
// "More" button rather than to the page. Each
// shows its pending state until the runtime confirms; single-key shortcuts
// work whatever is shown (press ? for the list).
import { useEffect, useRef } from "react";
import { Button, type ButtonVariant } from "@/components/ui/button";
import { Kbd } from "@/components/ui/kbd";
import type { Availability, ControlName } from "./control-names";
import { ControlMenu, type MenuEntry } from "./control-menu";
import { shortcutFor } from "./shortcuts";
import { useShortcutsEnabled } from "@/components/shared/shortcut-setting";

const LABELS: Record<ControlName, [idle: string, pending: string]> = {
  start: ["Start", "Starting…"],
  interrupt: ["Interrupt", "Interrupting…"],
  kill: ["Kill", "Killing…"],
  resume: ["Resume", "Resuming…"],
  forceHandoff: ["Force handoff", "Handoff pending…"],
  nudge: ["Nudge", "Nudge pending…"],
  approve: ["Approve", "Approving…"],
  reject: ["Reject", "Rejecting…"],
  requestChanges: ["Request changes", "Sending…"],
  terminate: ["Terminate", "Terminating…"],
  updateLimits: ["Edit limits", "Updating…"],
  fork: ["Fork", "Forking…"],
  share: ["Share", "Share"],
};

const GROUPS: { label: string; controls: ControlName[] }[] = [
  { label: "Run", controls: ["start", "interrupt", "kill", "resume"] },
  { label: "Steer", controls: ["forceHandoff", "nudge"] },
  { label: "Approval", controls: ["approve", "reject", "requestChanges"] },
  { label: "Manage", controls: ["updateLimits", "fork", "share", "terminate"] },
];

const VARIANT: Partial<Record<ControlName, ButtonVariant>> = {
  kill: "danger-subtle",
  terminate: "danger-subtle",
  reject: "danger-subtle",
  approve: "primary",
};

export function ControlBar({
  availability,
  isPending,
  onControl,
  onHelp,
  loopId,
  showStart,
  waitingForLimit = false,
}: {
  availability: (name: ControlName) => Availability;
  isPending: (name: ControlName) => boolean;
  onControl: (name: ControlName) => void;
  onHelp: () => void;
  loopId: string;
  showStart: boolean;
  /** Waiting for a usage limit: resume means "try now, before the reset". */
  waitingForLimit?: boolean;
}) {
  const bar = useRef<HTMLDivElement>(null);
  const keysOn = useShortcutsEnabled();
  const lastFocused = useRef<ControlName | null>(null);
  const shown = (c: ControlName) => availability(c).allowed || isPending(c);
  // A control that stopped being valid while it had focus is gone from the bar: focus moves to
  // the "More" button (never a control a stray Enter would fire), not to the page. This happens
  // on a state change only, never between a pointer's mousedown and mouseup.
  useEffect(() => {
    const name = lastFocused.current;
    if (!name || bar.current?.querySelector(`[data-control="${name}"]`)) return;
    lastFocused.current = null;
    if (document.activeElement === document.body || document.activeElement === null)
      bar.current?.querySelector<HTMLElement>("[data-testid=more-controls]")?.focus();
  });
  const label = (control: ControlName, pending: boolean) =>
    control === "resume" && waitingForLimit && !pending ? "Resume now" : LABELS[control][pending ? 1 : 0];
  const all = GROUPS.flatMap((g) => g.controls).filter((c) => c !== "start" || showStart);
  const menu: MenuEntry[] = [
    ...all
      .filter((c) => !shown(c))
      .map((c) => ({
        key: c,
        label: label(c, false),
        reason: availability(c).reason ?? "not available now",
        onSelect: () => onControl(c),
      })),
    { key: "clone", label: "Clone into a new loop", reason: null, href: `/loops/new?from=${loopId}` },
    { key: "help", label: "Keyboard shortcuts (?)", reason: null, onSelect: onHelp },
  ];
  return (
    <div
      ref={bar}
      role="toolbar"
      aria-label="Loop controls"
      data-testid="control-bar"
      className="no-print flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
    >
      {GROUPS.map((group) => {
        const controls = group.controls.filter((c) => all.includes(c) && shown(c));
        if (controls.length === 0) return null;
        return (
          <div key={group.label} role="group" aria-label={group.label} className="flex flex-wrap items-center gap-1.5">
            {controls.map((control) => {
              const a = availability(control);
              const pending = isPending(control);
              const key = shortcutFor(control);
              const variant = VARIANT[control] ?? "secondary";
              return (
                <Button
                  key={control}
                  size="sm"
                  variant={a.allowed ? variant : "secondary"}
                  aria-disabled={!a.allowed || undefined}
                  pending={pending}
                  title={a.reason ?? undefined}
                  // Only while the key works: not when turned off, nor before the page's script listens.
                  aria-keyshortcuts={keysOn ? key : undefined}
                  data-control={control}
                  onFocus={() => (lastFocused.current = control)}
                  onBlur={() => (lastFocused.current = lastFocused.current === control ? null : lastFocused.current)}
                  onClick={() => onControl(control)}
                >
                  {label(control, pending)}
                  {key && !pending && (
                    <span className="hidden lg:inline">
                      <Kbd>{key}</Kbd>
                    </span>
                  )}
                </Button>
              );
            })}
          </div>
        );
      })}
      <div className="ml-auto flex items-center gap-1.5">
        <ControlMenu entries={menu} />
      </div>
    </div>
  );
}
