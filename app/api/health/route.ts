import { getProcessHealth } from "@/server/system/health.service";

export const dynamic = "force-dynamic";

export async function GET() {
  const report = await getProcessHealth();
  return Response.json(report, {
    status: report.status === "down" ? 503 : 200,
    headers: { "cache-control": "no-store" },
  });
}
