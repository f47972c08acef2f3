"use client";
// Edit limits while a loop runs: the engine re-validates the merged config
// and applies the patch at its next safe point.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, TextArea, TextInput } from "@/components/ui/field";
import type { DialogActions } from "./use-controls";

interface Limit {
  section: string;
  key: string;
  label: string;
  step: string;
}

const LIMITS: Limit[] = [
  { section: "stop", key: "maxIterations", label: "Maximum iterations", step: "1" },
  { section: "stop", key: "scoreThreshold", label: "Stop at mean score (0 = off)", step: "0.01" },
  { section: "stop", key: "maxCost", label: "Cost limit in USD (0 = off)", step: "0.01" },
  { section: "stop", key: "timeout", label: "Wall-clock limit in seconds (0 = off)", step: "1" },
  { section: "budget", key: "maxCostUsd", label: "Budget in USD (0 = none)", step: "0.01" },
  { section: "pacing", key: "delayMs", label: "Delay between iterations (ms)", step: "100" },
];

type Config = Record<string, Record<string, unknown> | undefined> | null;

export function LimitsDialog({ config, onClose, onConfirm, pending }: DialogActions & { config: Config }) {
  const current = (l: Limit) => String(config?.[l.section]?.[l.key] ?? "");
  const [values, setValues] = useState(() =>
    Object.fromEntries(LIMITS.map((l) => [`${l.section}.${l.key}`, current(l)])),
  );
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const patch: Record<string, Record<string, number>> = {};
    for (const l of LIMITS) {
      const raw = values[`${l.section}.${l.key}`] ?? "";
      if (raw === current(l)) continue;
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n) || n < 0) return setError(`${l.label}: enter a number >= 0`);
      (patch[l.section] ??= {})[l.key] = n;
    }
    if (Object.keys(patch).length === 0) return setError("Nothing changed");
    setError(null);
    if (await onConfirm({ patch, reason })) onClose();
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Edit limits"
      description="Applied at the loop's next safe point; the whole configuration is validated again first."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {LIMITS.map((l) => {
            const id = `limit-${l.section}-${l.key}`;
            return (
              <Field key={id} id={id} label={l.label}>
                <TextInput
                  id={id}
                  type="number"
                  min={0}
                  step={l.step}
                  value={values[`${l.section}.${l.key}`]}
                  onChange={(e) => setValues((v) => ({ ...v, [`${l.section}.${l.key}`]: e.target.value }))}
                />
              </Field>
            );
          })}
        </div>
        <Field id="limit-reason" label="Reason (optional)">
          <TextArea id="limit-reason" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
        {error && (
          <p role="alert" className="text-sm font-medium text-rose-700 dark:text-rose-400">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" pending={pending} disabled={pending}>
            Save limits
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
