// The live event stream over real HTTP: a node:http server in front of the same
// tRPC fetch adapter the Next route uses, read with raw fetch (to see the wire)
// and with the real tRPC client (httpSubscriptionLink + superjson).
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import superjson from "superjson";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../../../test/db-providers";
import { sleep, until } from "../../../test/event-test-helpers";
import { RecordingEventSource } from "../../../test/recording-event-source";
import { appendEvents, latestEventId, type StoredLoopEvent } from "../../db/events.repo";
import { closeEventWakeups, getEventWakeups, notifyEventsWritten } from "../../events/event-wakeups";
import type { AppRouter } from "../root";
import { readSseFrames, type SseFrame } from "../../../test/sse-frames";
import { servicesWithoutJobs, startTrpcHttpServer, type TrpcHttpServer } from "../../../test/trpc-http-server";
import { SSE_OPTIONS } from "../trpc";

afterAll(() => closeEventWakeups());

describeEachProvider("events.stream over HTTP", ({ db }) => {
  let server: TrpcHttpServer;
  beforeAll(async () => {
    server = await startTrpcHttpServer(servicesWithoutJobs(db()));
  });
  afterAll(() => server.close());
  // Every stream a test opened must have ended on the server too, not only in
  // the client: a stream left running would poll forever.
  afterEach(() => until(() => getEventWakeups(db()).subscriberCount === 0, 2_000));

  const append = async (type: string) => {
    await appendEvents(db().prisma, [{ loopId: null, type }]);
    void notifyEventsWritten(db());
    return latestEventId(db().prisma);
  };

  /** Opens the stream with fetch and collects its frames in the background. */
  async function openRaw(input: object, headers: Record<string, string> = {}) {
    const abort = new AbortController();
    const query = encodeURIComponent(JSON.stringify(superjson.serialize(input)));
    const response = await fetch(`${server.url}/events.stream?input=${query}`, {
      headers: { accept: "text/event-stream", ...headers },
      signal: abort.signal,
    });
    const frames: SseFrame[] = [];
    const reading = (async () => {
      for await (const frame of readSseFrames(response.body!)) frames.push(frame);
    })().catch(() => undefined);
    const data = () => frames.filter((f) => f.event === "message");
    const events = () => data().map((f) => superjson.deserialize<StoredLoopEvent>(JSON.parse(f.data)));
    await until(() => frames.some((f) => f.event === "connected"));
    return { response, frames, data, events, close: () => (abort.abort(), reading) };
  }

  it("streams text/event-stream with keep-alive pings; an event appended after connecting arrives", async () => {
    const stream = await openRaw({});
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get("cache-control")).toContain("no-cache");
    // The client learns from the server when to give up on a silent connection.
    const connected = stream.frames.find((f) => f.event === "connected")!;
    expect(JSON.parse(connected.data)).toEqual(SSE_OPTIONS.client);

    const id = await append("after.connect");
    await until(() => stream.data().length === 1);
    expect(stream.data()[0]!.id).toBe(String(id));
    expect(stream.events()[0]).toMatchObject({ id, type: "after.connect" });
    expect(stream.events()[0]!.createdAt).toBeInstanceOf(Date);

    await until(() => stream.frames.some((f) => f.event === "ping"), SSE_OPTIONS.ping.intervalMs + 3_000);
    await stream.close();
  });

  it("resumes from Last-Event-ID: replays only what was missed, then goes live", async () => {
    const seen = await append("seen");
    const missed = [await append("missed.1"), await append("missed.2")];
    const stream = await openRaw({}, { "last-event-id": String(seen) });
    await until(() => stream.data().length === 2);
    await sleep(150);
    expect(stream.data().map((f) => f.id)).toEqual(missed.map(String));
    const live = await append("live");
    await until(() => stream.data().length === 3);
    expect(stream.events().map((e) => e.id)).toEqual([...missed, live]);
    await stream.close();
  });

  it("a Last-Event-ID beyond the newest event (a reset database) resumes from the newest", async () => {
    const stream = await openRaw({}, { "last-event-id": "99999999" });
    const id = await append("after.reset");
    await until(() => stream.data().length === 1);
    expect(stream.events()[0]!.id).toBe(id);
    await stream.close();
  });

  it("ends the server-side generator when the client disconnects", async () => {
    // afterEach has seen every earlier stream end, so this one is the only one.
    const wakeups = getEventWakeups(db());
    const stream = await openRaw({});
    await until(() => wakeups.subscriberCount === 1);
    await stream.close();
    await until(() => wakeups.subscriberCount === 0, 2_000);
  });

  it("the tRPC client resumes after a dropped connection without losing or repeating events", async () => {
    RecordingEventSource.instances = [];
    const client = createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => op.type === "subscription",
          true: httpSubscriptionLink({ url: server.url, transformer: superjson, EventSource: RecordingEventSource }),
          false: httpLink({ url: server.url, transformer: superjson }),
        }),
      ],
    });
    const received: { id: string; event: StoredLoopEvent }[] = [];
    let started = false;
    const sub = client.events.stream.subscribe(
      {},
      {
        onStarted: () => (started = true),
        onData: ({ id, data }) => received.push({ id, event: data }),
        onError: (error) => received.push({ id: "error", event: error as never }),
      },
    );
    await until(() => started);
    const first = await append("client.1");
    await until(() => received.length === 1);

    const wakeups = getEventWakeups(db());
    const subscribed = wakeups.subscriberCount;
    server.dropConnections();
    // Written while the client is away: the resumed stream must replay them.
    const missed = [await append("client.2"), await append("client.3")];
    // The eventsource package reconnects after its default 3 s (the server sends no retry:).
    await until(() => received.length === 3, 10_000);
    const last = await append("client.4");
    await until(() => received.length === 4);
    await sleep(150);

    expect(received.map((r) => r.event.id)).toEqual([first, ...missed, last]);
    expect(received.map((r) => r.id)).toEqual([first, ...missed, last].map(String));
    expect(received[0]!.event.createdAt).toBeInstanceOf(Date);
    // The reconnect carried the last id it had seen.
    expect(RecordingEventSource.instances[0]!.attempts).toEqual([null, String(first)]);
    expect(wakeups.subscriberCount).toBe(subscribed);

    sub.unsubscribe();
    await until(() => wakeups.subscriberCount === subscribed - 1, 2_000);

    // The audit list, over the same client: newest first, paged by beforeId.
    const loopId = crypto.randomUUID();
    await db().prisma.loop.create({ data: { id: loopId, goal: "g", agentKind: "demo", config: {} } });
    await appendEvents(
      db().prisma,
      ["a", "b", "a", "c", "a"].map((type) => ({ loopId, type })),
    );
    const page1 = await client.events.list.query({ loopId, limit: 2, types: ["a"] });
    expect(page1.items.map((e) => e.type)).toEqual(["a", "a"]);
    const page2 = await client.events.list.query({ loopId, limit: 2, types: ["a"], beforeId: page1.nextBeforeId });
    expect(page2.items).toHaveLength(1);
    expect(page2.nextBeforeId).toBeUndefined();
    expect(page2.items[0]!.id).toBeLessThan(page1.items[1]!.id);
    await expect(client.events.list.query({ loopId, limit: 500 })).rejects.toThrow();
  });
});
