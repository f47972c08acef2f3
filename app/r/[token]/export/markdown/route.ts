// The shared report as Markdown, from the same model as the page.
import type { IterationPoint } from "@/lib/charts/types";
import { reportMarkdown, runsWithoutEvidence } from "@/components/report/report-model";
import { exportSharedReport } from "../../load-report";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  return exportSharedReport((await params).token, {
    extension: "md",
    contentType: "text/markdown; charset=utf-8",
    render: ({ report, final, generatedAt }) =>
      reportMarkdown(
        {
          loop: report.loop,
          report: report.report,
          series: report.series as IterationPoint[],
          outcomes: report.outcomes,
          limits: report.limits,
          noEvidence: runsWithoutEvidence(report.config),
        },
        final,
        generatedAt,
      ),
  });
}
