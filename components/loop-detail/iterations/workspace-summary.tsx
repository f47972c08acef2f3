"use client";
// An iteration's workspace snapshot in its timeline row: the diffstat
// (files, +/-), the flag for protected files the agent changed, and a
// workspace error that kept the snapshot from being taken.
import type { IterationRow } from "@/components/shared/api-types";
import { Badge } from "@/components/ui/badge";

export interface WorkspaceSummary {
  sha?: string;
  files?: { path: string; status: string }[];
  insertions?: number;
  deletions?: number;
  tampered?: { files: string[]; policy: string };
  error?: string;
}

export const workspaceOf = (it: IterationRow) => (it.workspace ?? null) as WorkspaceSummary | null;

export function WorkspaceBadges({ it }: { it: IterationRow }) {
  const ws = workspaceOf(it);
  if (!ws) return null;
  const files = ws.files?.length ?? 0;
  return (
    <>
      {ws.sha && (
        <span className="text-xs text-slate-600 tabular-nums dark:text-slate-400" data-testid="diffstat">
          {files} file{files === 1 ? "" : "s"}{" "}
          <span className="text-emerald-700 dark:text-emerald-400">+{ws.insertions ?? 0}</span>{" "}
          <span className="text-rose-700 dark:text-rose-400">−{ws.deletions ?? 0}</span>
        </span>
      )}
      {ws.tampered && (
        <span
          data-testid="tamper-flag"
          className="rounded bg-amber-700 px-1.5 py-0.5 text-xs font-semibold text-white"
          title={`Protected files changed by the agent (${ws.tampered.policy === "fail" ? "counted as failed evidence" : "restored before the checks"})`}
        >
          ⚑ evidence tampered: {ws.tampered.files.join(", ")}
        </span>
      )}
      {ws.error && <Badge tone="bad">workspace error</Badge>}
    </>
  );
}
