// One landing's status and findings (the conflict, the evidence re-run), shared by the loop page and the queue page.
import { Badge, type BadgeTone } from "@/components/ui/badge";

type Detail = {
  conflicts?: string[];
  diff?: string;
  checks?: { name: string; ok: boolean; reason: string; failing: string[] }[];
  notes?: string[];
} | null;

const TONES: Record<string, BadgeTone> = {
  landed: "good",
  needs_review: "bad",
  rebasing: "warn",
  checking: "warn",
};

export function LandingStatusBadge({ status }: { status: string }) {
  return <Badge tone={TONES[status] ?? "neutral"}>{status.replace("_", " ")}</Badge>;
}

export function LandingFindings({ detail }: { detail: Detail }) {
  if (!detail) return null;
  return (
    <div className="mt-2 space-y-2">
      {detail.conflicts && detail.conflicts.length > 0 && (
        <div>
          <p className="font-medium">Conflicts in {detail.conflicts.join(", ")}</p>
          {detail.diff && (
            <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-950">
              {detail.diff}
            </pre>
          )}
        </div>
      )}
      {detail.checks && detail.checks.length > 0 && (
        <ul aria-label="Evidence re-run" className="space-y-1">
          {detail.checks.map((c) => (
            <li key={c.name}>
              <Badge tone={c.ok ? "good" : "bad"}>{c.ok ? "pass" : "fail"}</Badge> {c.name}: {c.reason.slice(0, 300)}
              {c.failing.length > 0 && (
                <ul className="ml-6 list-disc">
                  {c.failing.slice(0, 20).map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      {detail.notes?.map((n) => (
        <p key={n} className="text-slate-600 dark:text-slate-400">
          {n}
        </p>
      ))}
    </div>
  );
}
