// One job slice for one loop. Only signed requests from this app (or another
// instance sharing its job secret) are accepted.
import { z } from "zod";
import { getAppRuntime } from "@/server/jobs/app-runtime";
import { SIGNATURE_HEADER } from "@/server/jobs/job-signing";
import { runSlice } from "@/server/jobs/slice-runner";

export const dynamic = "force-dynamic";
// Hosts that cap route-handler duration get a slice that fits; the slice
// re-dispatches itself before its budget (RALPH_SLICE_BUDGET_MS) runs out.
export const maxDuration = 60;

const body = z.object({ loopId: z.string().min(1).max(100) });

export async function POST(req: Request) {
  const runtime = getAppRuntime();
  const raw = await req.text();
  if (!runtime.signer.verify(raw, req.headers.get(SIGNATURE_HEADER))) {
    return Response.json({ error: "invalid or missing job signature" }, { status: 401 });
  }
  let parsed: z.infer<typeof body>;
  try {
    parsed = body.parse(JSON.parse(raw));
  } catch {
    return Response.json({ error: "body must be {\"loopId\": string}" }, { status: 400 });
  }
  try {
    const result = await runSlice(runtime.jobs, parsed.loopId);
    return Response.json(result);
  } catch (error) {
    // A passing fault: the lease expires and the sweeper retries from the checkpoint.
    console.error(`job slice for loop ${parsed.loopId} failed:`, error);
    return Response.json({ error: "slice failed; it will be retried" }, { status: 503 });
  }
}
