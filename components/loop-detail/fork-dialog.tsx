"use client";
// Fork: a new loop that continues from the checkpoint after a chosen
// iteration, with this loop's definition; the source is left untouched.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, TextInput } from "@/components/ui/field";
import type { DialogActions } from "./use-controls";

export function ForkDialog({ lastIteration, onClose, onConfirm, pending }: DialogActions & { lastIteration: number }) {
  const [iteration, setIteration] = useState(String(lastIteration));
  // One fork per dialog: a second submit (a double click) repeats this request, and the server makes one.
  const [requestId] = useState(() => crypto.randomUUID());
  const n = Number(iteration);
  const valid = Number.isInteger(n) && n >= 1 && n <= lastIteration;
  return (
    <Dialog
      open
      onClose={onClose}
      title="Fork from an iteration"
      description="Starts a new loop from the checkpoint written after that iteration: same goal and agent, its history up to there."
    >
      <form
        noValidate
        className="space-y-4"
        onSubmit={async (e) => {
          e.preventDefault();
          if (valid && (await onConfirm({ iteration: n, requestId }))) onClose();
        }}
      >
        <Field
          id="fork-iteration"
          label="Iteration"
          hint={`1 to ${lastIteration}`}
          error={valid ? undefined : `enter a whole number from 1 to ${lastIteration}`}
        >
          <TextInput
            id="fork-iteration"
            type="number"
            min={1}
            max={lastIteration}
            step={1}
            value={iteration}
            invalid={!valid}
            onChange={(e) => setIteration(e.target.value)}
          />
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" pending={pending} disabled={!valid || pending}>
            Fork and start
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
