"use client";
// Who did what, when and why: the loop's events, newest first. Events that
// arrive live are shown at once, before the list itself is refetched.
import { LocalTime } from "@/components/ui/local-time";
import { useQueries } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import type { AuditEvent } from "@/components/shared/api-types";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { Checkbox } from "@/components/ui/field";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, Td } from "@/components/ui/table";
import { actorLabel, eventLabel, human, statusWords, stopWords } from "./audit-labels";

const PAGE = 50;
/** Engine bookkeeping that buries the decisions people look for; hidden unless asked for. */
const ROUTINE = new Set(["checkpoint_created", "scored", "reflected", "iteration_started", "validated", "verified"]);

/** A short, human line for an event's payload: every enum in words, never a code. */
export function describeEvent(e: Pick<AuditEvent, "type" | "payload">): string {
  const p = (e.payload ?? {}) as Record<string, unknown>;
  const at = typeof p.iteration === "number" && p.iteration > 0 ? ` (after iteration ${p.iteration})` : "";
  switch (e.type) {
    case "control_requested":
      return `${human(p.command)} → ${human(p.outcome)}${p.message ? `: “${String(p.message)}”` : p.comment ? `: “${String(p.comment)}”` : ""}`;
    case "control_applied":
    case "control_rejected":
      return `${human(p.command) || "a control"}${at}`;
    case "limits_updated":
      return changedLimits(p.patch);
    case "status_changed":
      return `${statusWords(p.from)} → ${statusWords(p.to)}`;
    case "iteration_finished":
      return `#${String(p.iteration)} ${human(p.status)}, score ${typeof p.meanScore === "number" ? p.meanScore.toFixed(2) : "—"}${p.claimMismatch ? ", claim ≠ evidence" : ""}`;
    case "halted":
      return `${stopWords(p.stopType)} (${statusWords(p.status)})`;
    case "handoff":
      return `fresh context: ${human(p.trigger)}`;
    case "approval_requested":
    case "approval_decided":
      return `${human(p.kind)} gate${p.decision ? `: ${human(p.decision)}${p.byDefault ? " (deadline default)" : ""}` : ""}`;
    case "permission_requested":
      return `${String(p.toolName ?? "a tool")}: ${String(p.summary ?? "").split("\n")[0]} (${String(p.risk ?? "")} risk; ${String(p.defaultAction ?? "")} at the deadline)`;
    case "permission_decided":
      return `${String(p.toolName ?? "a tool")} ${String(p.decision ?? "")}${p.byDefault ? " (deadline default)" : ""}: ${String(p.summary ?? "").split("\n")[0]}`;
    case "attention_needed":
      return `the agent asks: “${String(p.question ?? "")}”`;
    case "intervention":
      return `${human(p.level)}: ${String(p.message ?? "")}`;
    case "health_changed":
    case "breaker_changed":
      return `${human(p.from)} → ${human(p.to)}`;
    case "budget_alert":
    case "throttled":
      return p.action ? `budget says ${human(p.action)}` : at.trim();
    case "alarm_raised":
      return `${human(p.alarm)} alarm: ${String(p.detail ?? "")}`;
    case "alert_muted":
      return `${p.kind === "*" ? "all" : human(p.kind)} alerts ${p.until ? `snoozed until ${String(p.until)}` : "muted"}`;
    case "race_decided":
      return p.won ? "this loop won its race" : "another contender won the race; this loop is stopped";
    case "alert_unmuted":
      return `${p.kind === "*" ? "all" : human(p.kind)} alerts unmuted`;
    default:
      return typeof p.iteration === "number" ? `iteration ${p.iteration}` : "";
  }
}

/** "max iterations, budget" from a limits patch: which limits an operator edited. */
function changedLimits(patch: unknown): string {
  if (!patch || typeof patch !== "object") return "";
  const names = Object.entries(patch as Record<string, unknown>).flatMap(([group, value]) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.keys(value).map((k) => k.replace(/([A-Z])/g, " $1").toLowerCase())
      : [group],
  );
  return names.join(", ");
}

export function AuditLog({ loopId, live }: { loopId: string; live: AuditEvent[] }) {
  const trpc = useTRPC();
  const [cursors, setCursors] = useState<number[]>([]);
  const [everything, setEverything] = useState(false);
  const pages = useQueries({
    queries: [undefined, ...cursors].map((beforeId) =>
      trpc.events.list.queryOptions({ loopId, limit: PAGE, ...(beforeId ? { beforeId } : {}) }),
    ),
  });
  const first = pages[0]!;
  if (first.isPending) return <SkeletonRows rows={5} label="Loading the audit log" className="h-8" />;
  if (first.isError)
    return (
      <ErrorState
        title="Could not load the audit log"
        message={errorMessage(first.error)}
        onRetry={() => first.refetch()}
      />
    );
  const loaded = pages.flatMap((p) => p.data?.items ?? []);
  const newest = loaded[0]?.id ?? 0;
  const events = [...live.filter((e) => e.id > newest).sort((a, b) => b.id - a.id), ...loaded].filter(
    (e) => everything || !ROUTINE.has(e.type),
  );
  const next = pages.at(-1)?.data?.nextBeforeId;
  return (
    <div>
      <div className="mb-2">
        <Checkbox
          id="audit-all"
          label="Show engine bookkeeping too (checkpoints, scoring, reflection)"
          checked={everything}
          onChange={(e) => setEverything(e.target.checked)}
        />
      </div>
      <Table label="Audit log" columns={["When", "Who", "What", "Why"]}>
        <tbody>
          {events.map((e) => (
            <tr
              key={e.id}
              data-testid="audit-row"
              data-type={e.type}
              className="border-b border-slate-100 last:border-0 dark:border-slate-800"
            >
              <Td className="whitespace-nowrap text-xs text-slate-500 dark:text-slate-400">
                <LocalTime date={e.createdAt} mode="time" />
              </Td>
              <Td className="whitespace-nowrap" title={e.actor}>
                {actorLabel(e)}
              </Td>
              <Td>
                <span className="font-medium">{eventLabel(e.type)}</span>{" "}
                <span className="text-slate-600 dark:text-slate-400">{describeEvent(e)}</span>
              </Td>
              <Td className="text-slate-600 dark:text-slate-400">{e.reason ?? ""}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {next && (
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => setCursors((c) => [...c, next])}>
          Older events
        </Button>
      )}
    </div>
  );
}
