// One job slice for one loop, when the app dispatches over HTTP
// (server/jobs/dispatch-mode.ts). Only signed requests from this app (or
// another instance sharing its job secret) are accepted.
import { getAppRuntime } from "@/server/jobs/app-runtime";
import { handleJobRequest } from "@/server/jobs/job-route";

export const dynamic = "force-dynamic";
// Hosts that cap route-handler duration get a slice that fits; the slice
// re-dispatches itself before its budget (RALPH_SLICE_BUDGET_MS) runs out.
export const maxDuration = 60;

export function POST(req: Request) {
  return handleJobRequest(req, getAppRuntime());
}
