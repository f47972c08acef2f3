// The loop's report as JSON for a signed-in user: what a share link's export gives, without a link.
import { exportLoopReport } from "@/app/r/[token]/load-report";
import { JSON_REPORT } from "@/app/r/[token]/export/formats";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return exportLoopReport((await params).id, JSON_REPORT);
}
