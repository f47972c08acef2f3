// Keyboard shortcuts of the loop page. Single keys, no modifiers, ignored
// while typing or while a dialog is open, and off altogether when the user
// turned them off (WCAG 2.1.4). Every key either opens a dialog or, for
// controls that would act at once, asks to confirm first.
import type { ControlName } from "./control-names";

export const SHORTCUTS: { key: string; control: ControlName; label: string; confirm?: true }[] = [
  { key: "i", control: "interrupt", label: "Interrupt (pause after this iteration)", confirm: true },
  { key: "k", control: "kill", label: "Kill the running agent" },
  { key: "r", control: "resume", label: "Resume", confirm: true },
  { key: "h", control: "forceHandoff", label: "Force a fresh-context handoff", confirm: true },
  { key: "n", control: "nudge", label: "Nudge (message to the agent)" },
  { key: "a", control: "approve", label: "Approve" },
  { key: "x", control: "reject", label: "Reject" },
  { key: "c", control: "requestChanges", label: "Request changes" },
  { key: "t", control: "terminate", label: "Terminate" },
  { key: "l", control: "updateLimits", label: "Edit limits" },
  { key: "f", control: "fork", label: "Fork from an iteration" },
  { key: "s", control: "share", label: "Share" },
];

/**
 * Controls that ask first even from their button: what they do cannot be taken back (a handoff
 * drops the agent's context; a resume starts the agent again, after a kill too). What the
 * confirmation says about each.
 */
export const CONFIRM_ON_CLICK: Partial<Record<ControlName, string>> = {
  forceHandoff: "The next iteration starts from a fresh context: what the agent carried over is dropped.",
  resume: "The loop starts its agent again from where it stopped (after a kill too), and spends from its budget.",
};

/** Keys whose control has no dialog of its own: pressed, they open a confirmation instead of acting. */
export const CONFIRMED_KEYS = new Set(SHORTCUTS.filter((s) => s.confirm).map((s) => s.key));

export const shortcutFor = (control: ControlName) => SHORTCUTS.find((s) => s.control === control)?.key;

/** True when a key press belongs to a text field, a dialog or a browser shortcut, not to us. */
export function ignoreKey(e: Pick<KeyboardEvent, "altKey" | "ctrlKey" | "metaKey" | "target">): boolean {
  if (e.altKey || e.ctrlKey || e.metaKey) return true;
  const el = e.target as HTMLElement | null;
  if (!el || typeof el.closest !== "function") return false;
  return !!el.closest(
    "input, textarea, select, [contenteditable=''], [contenteditable='true'], dialog[open], [role=dialog]",
  );
}
