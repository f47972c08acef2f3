"use client";
import { setShortcutsEnabled, useShortcutsEnabled } from "./shortcut-setting";

/** The switch for single-key shortcuts, on the settings page and in the shortcuts help. */
export function ShortcutToggle() {
  const on = useShortcutsEnabled();
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        checked={on}
        onChange={(e) => setShortcutsEnabled(e.target.checked)}
        className="h-4 w-4 accent-sky-700"
      />
      Single-key keyboard shortcuts on the loop page
    </label>
  );
}
