// The report's two download formats, for a share link's exports and the
// signed-in loop page's: the same redacted data, rendered one way.
import type { IterationPoint } from "@/lib/charts/types";
import { reportMarkdown, runsWithoutEvidence } from "@/components/report/report-model";
import type { RouterOutputs } from "@/components/shared/api-types";

/** A report ready to render: the shared data, its last iteration, and when it was read. */
export interface LoadedReport {
  report: RouterOutputs["share"]["view"];
  final: RouterOutputs["share"]["iterations"]["items"][number] | null;
  generatedAt: Date;
}

export interface ReportFormat {
  extension: string;
  contentType: string;
  render: (loaded: LoadedReport) => string;
}

export const JSON_REPORT: ReportFormat = {
  extension: "json",
  contentType: "application/json; charset=utf-8",
  render: (loaded) =>
    JSON.stringify({ generatedAt: loaded.generatedAt, ...loaded.report, finalIteration: loaded.final }, null, 2),
};

export const MARKDOWN_REPORT: ReportFormat = {
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
};

/** A rendered report as a download that stays out of caches and referrers. */
export function reportDownload(loaded: LoadedReport, format: ReportFormat): Response {
  return new Response(format.render(loaded), {
    headers: {
      "content-type": format.contentType,
      "content-disposition": `attachment; filename="loop-report-${loaded.report.loop.id.slice(0, 8)}.${format.extension}"`,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    },
  });
}
