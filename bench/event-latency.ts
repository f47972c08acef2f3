// Event-to-subscriber latency: from the start of an event's write to its
// arrival on the SSE stream, over real HTTP (the tRPC fetch adapter on
// node:http, as in production behind Next). Called by `npm run bench`; never by
// `npm test`. It appends "bench.latency" events, so point it at a scratch database.
import superjson from "superjson";
import type { Database } from "../server/db/client";
import { signalEventsWritten } from "../server/db/event-signals";
import { appendEvents, type StoredLoopEvent } from "../server/db/events.repo";
import { notifyEventsWritten } from "../server/events/event-wakeups";
import { readSseFrames } from "../test/sse-frames";
import { servicesWithoutJobs, startTrpcHttpServer } from "../test/trpc-http-server";

export interface EventLatencyOptions {
  samples: number;
  /**
   * Wake the stream only the way another process's write would: pg_notify on
   * PostgreSQL, the WAL file watch on SQLite. Otherwise the writer also wakes
   * this process's readers directly, as the app's own runtime does.
   */
  crossProcess?: boolean;
  /** Pause between samples, so each one measures an idle stream waking up. */
  spacingMs?: number;
  /** Give up on a sample after this long. */
  timeoutMs?: number;
}

export interface EventLatencyResult {
  provider: Database["kind"];
  path: "in-process" | "cross-process";
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const round = (ms: number) => Math.round(ms * 100) / 100;

export async function measureEventLatency(
  database: Database,
  options: EventLatencyOptions,
): Promise<EventLatencyResult> {
  const { samples, crossProcess = false, spacingMs = 20, timeoutMs = 5_000 } = options;
  const server = await startTrpcHttpServer(servicesWithoutJobs(database));
  const abort = new AbortController();
  try {
    const input = encodeURIComponent(JSON.stringify(superjson.serialize({})));
    const response = await fetch(`${server.url}/events.stream?input=${input}`, {
      headers: { accept: "text/event-stream" },
      signal: abort.signal,
    });
    if (!response.ok || !response.body) throw new Error(`events.stream answered ${response.status}`);
    const frames = readSseFrames(response.body);

    const nextSample = async (): Promise<number> => {
      for (;;) {
        const { value: frame, done } = await frames.next();
        if (done) throw new Error("the event stream ended");
        if (frame.event !== "message") continue;
        const event = superjson.deserialize<StoredLoopEvent>(JSON.parse(frame.data));
        const sample = (event.payload as { sample?: number } | null)?.sample;
        if (event.type === "bench.latency" && sample !== undefined) return sample;
      }
    };
    // The stream starts from the newest event: wait until it is live.
    for (;;) {
      const { value: frame, done } = await frames.next();
      if (done) throw new Error("the event stream ended before it connected");
      if (frame.event === "connected") break;
    }

    const latencies: number[] = [];
    for (let sample = 0; sample < samples; sample++) {
      await new Promise((r) => setTimeout(r, spacingMs * (0.5 + Math.random())));
      const start = performance.now();
      await appendEvents(database.prisma, [{ loopId: null, type: "bench.latency", payload: { sample } }]);
      // A foreign payload: this process's own notifications are ignored as echoes.
      if (crossProcess) void signalEventsWritten(database, "bench").catch(() => undefined);
      else void notifyEventsWritten(database);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`sample ${sample} not received within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        const received = await Promise.race([nextSample(), timeout]);
        if (received !== sample) throw new Error(`expected sample ${sample}, received ${received}`);
      } finally {
        clearTimeout(timer);
      }
      latencies.push(performance.now() - start);
    }

    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      provider: database.kind,
      path: crossProcess ? "cross-process" : "in-process",
      samples,
      p50Ms: round(percentile(sorted, 50)),
      p95Ms: round(percentile(sorted, 95)),
      maxMs: round(sorted.at(-1) ?? NaN),
    };
  } finally {
    abort.abort();
    await server.close();
  }
}
