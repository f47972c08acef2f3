// The shared report as JSON: the same redacted data the page renders.
import { loadSharedReport } from "../../load-report";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  const loaded = await loadSharedReport((await params).token);
  if (loaded.kind === "missing") return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (loaded.kind === "limited") return new Response("Too many requests\n", { status: 429, headers: { "content-type": "text/plain; charset=utf-8", "retry-after": "60" } });
  const body = JSON.stringify({ generatedAt: loaded.generatedAt, ...loaded.report, finalIteration: loaded.final }, null, 2);
  return new Response(body, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="loop-report-${loaded.report.loop.id.slice(0, 8)}.json"`,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    },
  });
}
