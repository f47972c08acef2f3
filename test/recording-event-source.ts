// Node 20 has no EventSource: tests give tRPC's httpSubscriptionLink the
// `eventsource` package's, which reconnects and sends the Last-Event-ID of the
// last event received as a browser does. This subclass only records each
// connection attempt's Last-Event-ID header, for assertions.
import { EventSource } from "eventsource";

export class RecordingEventSource extends EventSource {
  static instances: RecordingEventSource[] = [];
  /** Every connection attempt's Last-Event-ID header (null on the first). */
  readonly attempts: (string | null)[];

  constructor(url: string | URL, init?: ConstructorParameters<typeof EventSource>[1]) {
    const attempts: (string | null)[] = [];
    super(url, {
      ...init,
      fetch: (input, options) => {
        attempts.push(new Headers(options?.headers).get("last-event-id"));
        return fetch(input, options);
      },
    });
    this.attempts = attempts;
    RecordingEventSource.instances.push(this);
  }
}
