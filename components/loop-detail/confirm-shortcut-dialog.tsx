"use client";
// A control that acts at once from its button asks first when it came from
// a single key (WCAG 2.1.4): a stray key press must not interrupt a loop.
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

export function ConfirmShortcutDialog({
  label,
  onConfirm,
  onClose,
  description = "You pressed its keyboard shortcut.",
}: {
  label: string;
  /** What acting does (a control confirmed from its button); by default, that a key asked for it. */
  description?: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open
      onClose={onClose}
      title={`${label}?`}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            data-autofocus
            onClick={() => {
              onConfirm();
              onClose();
            }}
          >
            {label}
          </Button>
        </>
      }
    />
  );
}
