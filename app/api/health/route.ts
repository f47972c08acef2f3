import { getDatabase } from "@/server/db/database";
import { getHealth } from "@/server/system/health.service";

export const dynamic = "force-dynamic";

export async function GET() {
  const report = await getHealth(getDatabase(), process.cwd());
  return Response.json(report, {
    status: report.status === "down" ? 503 : 200,
    headers: { "cache-control": "no-store" },
  });
}
