// The shared report as Markdown, from the same model as the page.
import { exportSharedReport } from "../../load-report";
import { MARKDOWN_REPORT } from "../formats";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  return exportSharedReport((await params).token, MARKDOWN_REPORT);
}
