// The shared report as Markdown, from the same model as the page.
import type { IterationPoint } from "@/lib/charts/types";
import { reportMarkdown } from "@/components/report/report-model";
import { loadSharedReport } from "../../load-report";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  const loaded = await loadSharedReport((await params).token);
  if (loaded.kind === "missing") return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (loaded.kind === "limited") return new Response("Too many requests\n", { status: 429, headers: { "content-type": "text/plain; charset=utf-8", "retry-after": "60" } });
  const { report, final } = loaded;
  const md = reportMarkdown({ loop: report.loop, report: report.report, series: report.series as IterationPoint[] }, final, loaded.generatedAt);
  return new Response(md, {
    headers: {
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": `attachment; filename="loop-report-${report.loop.id.slice(0, 8)}.md"`,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    },
  });
}
