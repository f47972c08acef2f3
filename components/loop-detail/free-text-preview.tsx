"use client";
// What a shared report will show of the free text being typed (a terminate
// or kill reason, a comment): the server's redaction, previewed before it is
// sent, like the share dialog previews the configuration.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import { useSettled } from "@/components/shared/use-settled";

export function FreeTextPreview({ text, id }: { text: string; id?: string }) {
  const trpc = useTRPC();
  const settled = useSettled(text, 250);
  const preview = useQuery({
    ...trpc.loops.freeTextPreview.queryOptions({ text: settled }),
    enabled: settled.trim() !== "",
    placeholderData: keepPreviousData,
  });
  if (text.trim() === "" || !preview.data) return null;
  const blanked = preview.data.redacted.reduce((n, r) => n + r.count, 0);
  return (
    <div
      id={id}
      className="rounded-lg border border-slate-200 bg-slate-50 p-2 text-xs dark:border-slate-800 dark:bg-slate-950"
    >
      <p className="font-medium">Shared reports will show:</p>
      <p data-testid="free-text-preview" className="mt-1 whitespace-pre-wrap break-words">
        {preview.data.text.split(/(\[redacted\])/).map((part, i) =>
          part === "[redacted]" ? (
            <mark key={i} className="rounded bg-amber-200 px-0.5 text-amber-950">
              {part}
            </mark>
          ) : (
            part
          ),
        )}
      </p>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        {blanked
          ? `${preview.data.redacted.map((r) => `${r.count} ${r.kind}${r.count === 1 ? "" : "s"}`).join(", ")} will be redacted.`
          : "Nothing in it looks like a secret or an e-mail address; it is published as written."}
      </p>
    </div>
  );
}
