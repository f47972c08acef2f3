"use client";
// The definition exactly as a shared page will carry it, with every blanked
// value marked, so nobody shares a link hoping a secret was removed.
import type { RouterOutputs } from "@/components/shared/api-types";
import { formatScore, formatUsd, statusDisplay } from "@/components/loops/format";

type Preview = RouterOutputs["loops"]["sharePreview"];

export function RedactionPreview({ data }: { data: Preview }) {
  const json = JSON.stringify(data.loop.definition, null, 2);
  const redacted = (json.match(/\[redacted\]/g) ?? []).length;
  return (
    <div className="space-y-2 text-sm">
      <p>
        <span className="font-medium">{data.loop.name || data.loop.goal}</span> ·{" "}
        {statusDisplay(data.loop.status).label} · {data.series.length} iterations · best{" "}
        {formatScore(data.loop.bestScore)} · {formatUsd(data.loop.costUsd)}
      </p>
      <p className="text-slate-600 dark:text-slate-400">
        {redacted
          ? `${redacted} sensitive value${redacted === 1 ? "" : "s"} will show as [redacted].`
          : "No secret references in this configuration."}{" "}
        The workspace path, lease and creator are left out, and people are named only as “an operator”.
      </p>
      {data.loop.stopReason ? (
        <p data-testid="shared-stop-reason">
          <span className="font-medium">Stop reason as shared:</span> {data.loop.stopReason}
        </p>
      ) : null}
      <details>
        <summary className="cursor-pointer font-medium">Shared configuration</summary>
        <pre
          data-testid="redaction-preview"
          className="mt-2 max-h-64 overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-2 text-xs dark:border-slate-800 dark:bg-slate-950"
        >
          {json.split(/(\[redacted\])/).map((part, i) =>
            part === "[redacted]" ? (
              <mark key={i} className="rounded bg-amber-200 px-0.5 text-amber-950">
                {part}
              </mark>
            ) : (
              part
            ),
          )}
        </pre>
      </details>
    </div>
  );
}
