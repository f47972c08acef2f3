"use client";
// What the loop protects from its agent and why (derived from its checks on the base commit, plus the
// operator's globs, minus the ones removed), and each check's baseline: opened from the iterations' toolbar.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import type { RouterOutputs } from "@/components/shared/api-types";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";

type Protection = RouterOutputs["loops"]["protection"];

export function ProtectionList({ p }: { p: Protection }) {
  return (
    <div className="space-y-2 text-xs" data-testid="protection">
      {!p.recorded && (
        <p className="text-slate-600 dark:text-slate-400">
          {p.deriveFromChecks
            ? "The files the checks run are derived at the first graded run; the loop's own globs so far:"
            : "Derivation from the checks is off; the loop's own globs:"}
        </p>
      )}
      <table className="w-full text-left">
        <thead>
          <tr>
            <th className="pr-2 font-medium">Protected</th>
            <th className="pr-2 font-medium">Kind</th>
            <th className="font-medium">Why</th>
          </tr>
        </thead>
        <tbody>
          {p.entries.map((e) => (
            <tr key={e.glob} data-testid="protected-entry">
              <td className="pr-2 font-mono">{e.glob}</td>
              <td className="pr-2">{e.kind}</td>
              <td>{e.why}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {p.unprotected.length > 0 && <p>Removed by the operator: {p.unprotected.join(", ")}</p>}
      {p.baselines.map((b) => (
        <p key={b.check} data-testid="baseline">
          Baseline of {b.check}
          {p.baselineSha ? ` at ${p.baselineSha.slice(0, 12)}` : ""}:{" "}
          {b.perTest ? `${b.targets} targets, ${b.kept} to keep, ` : "exit-code grading, "}
          {b.ran} ran, {b.skipped} skipped{b.note ? ` (${b.note})` : ""}
        </p>
      ))}
    </div>
  );
}

export function ProtectionPanel({ loopId }: { loopId: string }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const q = useQuery({ ...trpc.loops.protection.queryOptions({ id: loopId }), enabled: open });
  return (
    <div>
      <Button size="sm" variant="secondary" onClick={() => setOpen(!open)} aria-expanded={open}>
        Protected evidence
      </Button>
      {open && (
        <div className="mt-2 rounded-lg border border-slate-200 p-2 dark:border-slate-800">
          {q.isError ? (
            <p className="text-xs text-rose-700">{errorMessage(q.error)}</p>
          ) : q.data ? (
            <ProtectionList p={q.data} />
          ) : (
            <p className="text-xs">Loading…</p>
          )}
        </div>
      )}
    </div>
  );
}
