// The app's tRPC endpoint (and /api/mcp) on a real node:http socket, through the same
// handler as the Next route (request guard + session-cookie or bearer-token
// context, event streams streamed as they come), with
// the server-side peer-address stamp installed as at server start. Tests see
// real status codes, headers and cookies.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { handleTrpcHttp } from "../server/api/http-handler";
import { handleMcpHttp, MCP_ENDPOINT } from "../server/mcp/mcp-http";
import type { LoopServices } from "../server/loops/loop-services";
import { installPeerStamp } from "../server/auth/peer-address";

export interface AppHttpServer {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Drops every open connection (event streams included), as a crashing proxy would. */
  dropConnections(): void;
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(Buffer.concat(chunks));
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), {
    method: req.method,
    headers,
    body,
    signal,
  });
}

export async function startAppHttpServer(services: LoopServices, host = "127.0.0.1"): Promise<AppHttpServer> {
  installPeerStamp();
  const server = createServer((req, res) => {
    void (async () => {
      // The request's signal is how tRPC learns that an event-stream client left.
      const left = new AbortController();
      res.on("close", () => left.abort());
      const response = req.url?.startsWith("/api/trpc")
        ? await handleTrpcHttp(await toRequest(req, left.signal), services)
        : req.url?.split("?")[0] === MCP_ENDPOINT
          ? await handleMcpHttp(await toRequest(req, left.signal), services)
          : new Response("not found", { status: 404 });
      const headers: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => {
        if (name !== "set-cookie") headers[name] = value;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length) headers["set-cookie"] = cookies;
      res.writeHead(response.status, headers);
      if (!response.body) return void res.end();
      // Streamed, so server-sent events (subscriptions) reach the client one at a time.
      const reader = response.body.getReader();
      res.on("close", () => void reader.cancel().catch(() => undefined));
      try {
        for (let chunk = await reader.read(); !chunk.done && !res.destroyed; chunk = await reader.read())
          res.write(chunk.value);
      } finally {
        res.end();
      }
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    dropConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A tiny tRPC-over-HTTP client that keeps one cookie and records every response body. */
export class HttpClient {
  cookie: string | null = null;
  readonly bodies: string[] = [];
  constructor(
    readonly base: string,
    readonly origin = base,
  ) {}

  async call(
    path: string,
    input: unknown,
    kind: "query" | "mutation" = "mutation",
    headers: Record<string, string> = {},
  ) {
    const payload = JSON.stringify({ json: input ?? null });
    const common: Record<string, string> = {
      origin: this.origin,
      ...(this.cookie ? { cookie: this.cookie } : {}),
      ...headers,
    };
    const response =
      kind === "query"
        ? await fetch(`${this.base}/api/trpc/${path}?input=${encodeURIComponent(payload)}`, { headers: common })
        : await fetch(`${this.base}/api/trpc/${path}`, {
            method: "POST",
            body: payload,
            headers: { "content-type": "application/json", ...common },
          });
    const text = await response.text();
    this.bodies.push(text);
    const setCookie = response.headers.getSetCookie()[0];
    if (setCookie) {
      const value = setCookie.split(";")[0]!;
      this.cookie = value.endsWith("=") ? null : value;
    }
    const body = JSON.parse(text) as {
      result?: { data?: { json?: unknown } };
      error?: { json?: { message: string; data: { code: string; httpStatus: number } } };
    };
    return {
      status: response.status,
      data: body.result?.data?.json as never,
      error: body.error?.json,
      setCookie,
      text,
    };
  }
}
