"use client";
// The dialog behind a control that needs words: a reason for destructive
// controls (kill, terminate, reject), a message for a nudge, a comment for
// approval decisions. Required fields are checked before anything is sent.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, TextArea } from "@/components/ui/field";
import type { ControlName } from "./control-names";
import { FreeTextPreview } from "./free-text-preview";
import type { DialogActions } from "./use-controls";

interface FieldSpec {
  name: "reason" | "message" | "comment";
  label: string;
  required: boolean;
  hint?: string;
  /** The text can reach a shared report (stop reason, gate decisions): preview its redaction. */
  published?: boolean;
}

interface DialogSpec {
  title: string;
  description: string;
  confirm: string;
  danger: boolean;
  fields: FieldSpec[];
}

const REASON: FieldSpec = {
  name: "reason",
  label: "Reason (recorded in the audit log and shown on shared reports)",
  required: true,
  published: true,
};

export const DIALOGS: Partial<Record<ControlName, DialogSpec>> = {
  kill: {
    title: "Kill the running agent?",
    description:
      "The agent process is stopped now; its partial iteration is recorded as interrupted and the loop pauses. You can then resume, nudge or terminate.",
    confirm: "Kill",
    danger: true,
    fields: [REASON],
  },
  terminate: {
    title: "Terminate this loop?",
    description:
      "The loop stops for good at its next safe point (explicit stop). Its history stays; fork it to run again.",
    confirm: "Terminate",
    danger: true,
    fields: [REASON],
  },
  reject: {
    title: "Reject at this gate?",
    description: "A completion gate keeps iterating; a budget or periodic gate pauses the loop until it is resumed.",
    confirm: "Reject",
    danger: true,
    fields: [REASON, { name: "comment", label: "Comment for the agent (optional)", required: false, published: true }],
  },
  nudge: {
    title: "Nudge the agent",
    description: "Your message is added to the next iteration's input.",
    confirm: "Send nudge",
    danger: false,
    fields: [{ name: "message", label: "Message", required: true, hint: "e.g. Focus on the rollback steps first." }],
  },
  requestChanges: {
    title: "Request changes",
    description: "The loop keeps iterating with your comment in the next iteration's input.",
    confirm: "Request changes",
    danger: false,
    fields: [{ name: "comment", label: "What should change", required: true, published: true }],
  },
  approve: {
    title: "Approve",
    description: "The loop passes the gate (a completion gate completes the loop).",
    confirm: "Approve",
    danger: false,
    fields: [{ name: "comment", label: "Comment (optional)", required: false, published: true }],
  },
};

export function ControlDialog({ control, onClose, onConfirm, pending }: DialogActions & { control: ControlName }) {
  const spec = DIALOGS[control]!;
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const missing = Object.fromEntries(
      spec.fields.filter((f) => f.required && !values[f.name]?.trim()).map((f) => [f.name, "is required"]),
    );
    setErrors(missing);
    if (Object.keys(missing).length) return;
    if (await onConfirm(values)) onClose();
  }

  return (
    <Dialog open onClose={onClose} title={spec.title} description={spec.description}>
      <form onSubmit={submit} noValidate className="space-y-4">
        {spec.fields.map((f, i) => (
          <div key={f.name} className="space-y-2">
            <Field id={`control-${f.name}`} label={f.label} hint={f.hint} error={errors[f.name]} required={f.required}>
              <TextArea
                id={`control-${f.name}`}
                rows={3}
                autoFocus={i === 0}
                invalid={!!errors[f.name]}
                aria-describedby={errors[f.name] ? `control-${f.name}-error` : undefined}
                value={values[f.name] ?? ""}
                onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
              />
            </Field>
            {f.published && <FreeTextPreview text={values[f.name] ?? ""} />}
          </div>
        ))}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant={spec.danger ? "danger" : "primary"} pending={pending} disabled={pending}>
            {spec.confirm}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
