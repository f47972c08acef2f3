// The shared report as JSON: the same redacted data the page renders.
import { exportSharedReport } from "../../load-report";
import { JSON_REPORT } from "../formats";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  return exportSharedReport((await params).token, JSON_REPORT);
}
