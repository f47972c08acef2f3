"use client";
import { Dialog } from "@/components/ui/dialog";
import { Kbd } from "@/components/ui/kbd";
import { ShortcutToggle } from "@/components/shared/shortcut-toggle";
import { CONFIRMED_KEYS, SHORTCUTS } from "./shortcuts";

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <Dialog
      open
      onClose={onClose}
      title="Keyboard shortcuts"
      description="Single keys, on this page, when no text field or dialog has focus. Controls that are not valid right now do nothing; those that act at once ask first."
    >
      <div className="mb-4">
        <ShortcutToggle />
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {[...SHORTCUTS, { key: "?", label: "Show this help" }, { key: "Esc", label: "Close a dialog" }].map((s) => (
          <div key={s.key} className="contents">
            <dt>
              <Kbd>{s.key}</Kbd>
            </dt>
            <dd>
              {s.label}
              {CONFIRMED_KEYS.has(s.key) ? " (asks to confirm)" : ""}
            </dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
