// Dispatches a loop to the app's job route as a signed HTTP request, so each
// slice runs in a route handler (and so within its time limit), on whichever
// instance the URL reaches. At most `limit` requests are in flight from this
// process; the rest wait their turn.
import { dispatchTimer, type Dispatcher } from "./runtime-deps";
import { SIGNATURE_HEADER, type JobSigner } from "./job-signing";
import { Semaphore } from "./semaphore";

export const JOB_ROUTE = "/api/jobs/run";

export class HttpDispatcher implements Dispatcher {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Loops with a request in flight from this process; a second dispatch waits for it. */
  private readonly inflight = new Set<string>();
  private readonly again = new Set<string>();
  private readonly slots: Semaphore;

  constructor(
    private readonly baseUrl: string,
    private readonly signer: JobSigner,
    private readonly log: (message: string) => void = (m) => console.warn(m),
    limit = 50,
  ) {
    this.slots = new Semaphore(limit);
  }

  dispatch(loopId: string): void {
    if (this.inflight.has(loopId)) {
      this.again.add(loopId);
      return;
    }
    this.inflight.add(loopId);
    void this.slots.acquire().then((release) => this.send(loopId, release));
  }

  private send(loopId: string, release: () => void) {
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
      .catch((error: unknown) =>
        this.log(`job dispatch for loop ${loopId} failed: ${String(error)} (the sweeper will retry)`),
      )
      .finally(() => {
        release();
        this.inflight.delete(loopId);
        if (this.again.delete(loopId)) this.dispatch(loopId);
      });
  }

  dispatchAt(loopId: string, at: Date): void {
    clearTimeout(this.timers.get(loopId));
    const timer = dispatchTimer(at, () => {
      this.timers.delete(loopId);
      this.dispatch(loopId);
    });
    this.timers.set(loopId, timer);
  }
}
