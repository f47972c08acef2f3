// Node 20 has no EventSource and the `eventsource` package is not installed, so
// tests give tRPC's httpSubscriptionLink this stand-in built on fetch. It keeps
// the browser behaviour the app relies on: automatic reconnection that sends
// the Last-Event-ID header of the last event received.
import { readSseFrames } from "./sse-frames";

const RECONNECT_MS = 100;

export class FetchEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSED = 2;
  readonly withCredentials = false;
  readyState = 0;
  /** Every connection attempt's Last-Event-ID header, for assertions. */
  readonly attempts: (string | null)[] = [];
  private lastEventId = "";
  private abort = new AbortController();

  constructor(readonly url: string) {
    super();
    FetchEventSource.instances.push(this);
    void this.connect();
  }

  static instances: FetchEventSource[] = [];

  close() {
    this.readyState = this.CLOSED;
    this.abort.abort();
  }

  private async connect() {
    if (this.readyState === this.CLOSED) return;
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (this.lastEventId) headers["last-event-id"] = this.lastEventId;
    this.attempts.push(this.lastEventId || null);
    try {
      const response = await fetch(this.url, { headers, signal: this.abort.signal });
      if (!response.ok || !response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
        this.readyState = this.CLOSED;
        this.dispatchEvent(new Event("error"));
        return;
      }
      this.readyState = this.OPEN;
      this.dispatchEvent(new Event("open"));
      for await (const frame of readSseFrames(response.body)) {
        if (frame.id !== undefined) this.lastEventId = frame.id;
        if (this.readyState === this.CLOSED) return;
        if (!frame.hasData) continue;
        this.dispatchEvent(new MessageEvent(frame.event, { data: frame.data, lastEventId: this.lastEventId }));
      }
    } catch {
      // Network error or close(): handled below like the end of the stream.
    }
    if (this.readyState === this.CLOSED) return;
    this.readyState = this.CONNECTING;
    this.dispatchEvent(new Event("error"));
    setTimeout(() => void this.connect(), RECONNECT_MS);
  }
}
