// Dispatches a loop to the app's own job route as a signed HTTP request, so
// each slice runs in a route handler (and so within its time limit).
import type { Dispatcher } from "./runtime-deps";
import { SIGNATURE_HEADER, type JobSigner } from "./job-signing";

export const JOB_ROUTE = "/api/jobs/run";

export class HttpDispatcher implements Dispatcher {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Loops with a request in flight from this process; a second dispatch waits for it. */
  private readonly inflight = new Set<string>();
  private readonly again = new Set<string>();

  constructor(
    private readonly baseUrl: string,
    private readonly signer: JobSigner,
    private readonly log: (message: string) => void = (m) => console.warn(m),
  ) {}

  dispatch(loopId: string): void {
    if (this.inflight.has(loopId)) {
      this.again.add(loopId);
      return;
    }
    this.inflight.add(loopId);
    const body = JSON.stringify({ loopId });
    fetch(new URL(JOB_ROUTE, this.baseUrl), {
      method: "POST",
      headers: { "content-type": "application/json", [SIGNATURE_HEADER]: this.signer.sign(body) },
      body,
    })
      .then(async (res) => {
        // The response arrives when the slice ends; reading it frees the connection.
        await res.text();
        if (!res.ok) this.log(`job dispatch for loop ${loopId} answered ${res.status}`);
      })
      .catch((error: unknown) => this.log(`job dispatch for loop ${loopId} failed: ${String(error)} (the sweeper will retry)`))
      .finally(() => {
        this.inflight.delete(loopId);
        if (this.again.delete(loopId)) this.dispatch(loopId);
      });
  }

  dispatchAt(loopId: string, at: Date): void {
    clearTimeout(this.timers.get(loopId));
    const timer = setTimeout(() => {
      this.timers.delete(loopId);
      this.dispatch(loopId);
    }, Math.max(0, at.getTime() - Date.now()) + 5);
    timer.unref?.();
    this.timers.set(loopId, timer);
  }
}
