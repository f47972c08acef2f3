// The job route's logic (POST /api/jobs/run), apart from Next so it is tested
// over real HTTP: only signed requests run a slice, and only while this process
// has a free slot; a full process answers 503 and the sweeper dispatches again.
import { z } from "zod";
import { SIGNATURE_HEADER, type JobSigner } from "./job-signing";
import type { JobRuntime } from "./runtime-deps";
import type { Semaphore } from "./semaphore";
import { runSlice } from "./slice-runner";
import { bodyOr413, JOB_BODY_LIMIT } from "../request-body";

const body = z.object({ loopId: z.string().min(1).max(100) });

export async function handleJobRequest(
  req: Request,
  runtime: { jobs: JobRuntime; signer: JobSigner; slots: Semaphore },
): Promise<Response> {
  // Capped before the signature is checked: an unsigned flood must not be buffered whole.
  const raw = await bodyOr413(req, JOB_BODY_LIMIT);
  if (raw instanceof Response) return raw;
  if (!runtime.signer.verify(raw, req.headers.get(SIGNATURE_HEADER))) {
    return Response.json({ error: "invalid or missing job signature" }, { status: 401 });
  }
  let parsed: z.infer<typeof body>;
  try {
    parsed = body.parse(JSON.parse(raw));
  } catch {
    return Response.json({ error: 'body must be {"loopId": string}' }, { status: 400 });
  }
  // The same bound as slices run in-process (RALPH_APP_CONCURRENCY).
  const release = runtime.slots.tryAcquire();
  if (!release) {
    return Response.json(
      { error: "busy: too many slices running; retried later" },
      { status: 503, headers: { "retry-after": "5" } },
    );
  }
  try {
    return Response.json(await runSlice(runtime.jobs, parsed.loopId));
  } catch (error) {
    // A passing fault: the lease expires and the sweeper retries from the checkpoint.
    console.error(`job slice for loop ${parsed.loopId} failed:`, error);
    return Response.json({ error: "slice failed; it will be retried" }, { status: 503 });
  } finally {
    release();
  }
}
