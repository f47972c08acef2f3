"use client";
// Every operator control in one bar, each enabled only when the server would
// accept it (aria-disabled, not disabled: a control stays focusable with its
// reason in its title, and keeps focus after it was pressed), each showing its pending state until the runtime confirms, with
// single-key shortcuts (press ? for the list).
import { Button, ButtonLink, type ButtonVariant } from "@/components/ui/button";
import { Kbd } from "@/components/ui/kbd";
import type { Availability, ControlName } from "./control-names";
import { shortcutFor } from "./shortcuts";

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
  return (
    <div
      role="toolbar"
      aria-label="Loop controls"
      className="no-print flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
    >
      {GROUPS.map((group) => (
        <div key={group.label} role="group" aria-label={group.label} className="flex flex-wrap items-center gap-1.5">
          {group.controls
            .filter((c) => c !== "start" || showStart)
            .map((control) => {
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
                  aria-keyshortcuts={key}
                  data-control={control}
                  onClick={() => onControl(control)}
                >
                  {control === "resume" && waitingForLimit && !pending
                    ? "Resume now"
                    : LABELS[control][pending ? 1 : 0]}
                  {key && !pending && (
                    <span className="hidden lg:inline">
                      <Kbd>{key}</Kbd>
                    </span>
                  )}
                </Button>
              );
            })}
        </div>
      ))}
      <div className="ml-auto flex items-center gap-1.5">
        <ButtonLink href={`/loops/new?from=${loopId}`} variant="ghost" size="sm">
          Clone
        </ButtonLink>
        <Button variant="ghost" size="sm" onClick={onHelp} aria-keyshortcuts="?" aria-label="Keyboard shortcuts">
          <Kbd>?</Kbd>
        </Button>
      </div>
    </div>
  );
}
