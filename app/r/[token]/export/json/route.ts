// The shared report as JSON: the same redacted data the page renders.
import { exportSharedReport } from "../../load-report";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  return exportSharedReport((await params).token, {
    extension: "json",
    contentType: "application/json; charset=utf-8",
    render: (loaded) =>
      JSON.stringify({ generatedAt: loaded.generatedAt, ...loaded.report, finalIteration: loaded.final }, null, 2),
  });
}
