// The app's tRPC endpoint on a plain node:http server, served through the same
// fetch adapter as the Next route handler (app/api/trpc/[trpc]/route.ts). Tests
// and the benchmark use it to exercise real HTTP and SSE without building Next.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createContext } from "../server/api/context";
import { appRouter } from "../server/api/root";
import type { Database } from "../server/db/client";
import { systemDeps } from "../server/jobs/system-deps";
import type { LoopServices } from "../server/loops/loop-services";

export interface TrpcHttpServer {
  /** e.g. http://127.0.0.1:41234/api/trpc */
  url: string;
  /** Drops every open connection, as a crashing proxy would. */
  dropConnections(): void;
  close(): Promise<void>;
}

const ENDPOINT = "/api/trpc";

async function toRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = new Uint8Array(Buffer.concat(chunks));
  }
  return new Request(new URL(req.url ?? "/", "http://127.0.0.1"), { method: req.method, headers, body, signal });
}

/** Services for a server that only reads (events, lists): dispatches go nowhere. */
export const servicesWithoutJobs = (db: Database): LoopServices => ({
  db,
  dispatcher: { dispatch: () => undefined, dispatchAt: () => undefined },
  engine: systemDeps,
});

async function handle(services: LoopServices, req: IncomingMessage, res: ServerResponse) {
  // The request's signal is how tRPC learns that the client left: it aborts the
  // subscription, which ends the event stream's generator.
  const left = new AbortController();
  res.on("close", () => left.abort());
  const request = await toRequest(req, left.signal);
  const response = await fetchRequestHandler({
    endpoint: ENDPOINT,
    req: request,
    router: appRouter,
    createContext: () => createContext({ services, headers: request.headers }),
  });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      // Backpressure: a slow client pauses the stream (and the event reader).
      if (!res.write(value)) await Promise.race([once(res, "drain"), once(res, "close")]);
    }
  } catch {
    // The client went away mid-stream; nothing left to tell it.
  } finally {
    res.end();
  }
}

export async function startTrpcHttpServer(services: LoopServices): Promise<TrpcHttpServer> {
  const server = createServer((req, res) => {
    handle(services, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${ENDPOINT}`,
    dropConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
