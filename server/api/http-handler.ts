// The tRPC endpoint over HTTP: request-safety checks first, then the fetch
// adapter with a context built from the session cookie. The Next route handler
// and in-process test servers both use this.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { LoopServices } from "../loops/loop-services";
import { createRequestContext } from "./context";
import { refuseUnsafeRequest } from "./request-guard";
import { appRouter } from "./root";

export const TRPC_ENDPOINT = "/api/trpc";

/** Malformed JSON is the client's mistake: say so with a 400 instead of letting it surface as an internal error. */
async function withCheckedJson(req: Request): Promise<Request | Response> {
  if (req.method !== "POST") return req;
  const body = await req.text();
  try {
    if (body !== "") JSON.parse(body);
  } catch (error) {
    return Response.json({ error: { code: "PARSE_ERROR", message: `The request body is not valid JSON: ${(error as Error).message}` } }, { status: 400 });
  }
  return new Request(req, { body });
}

export async function handleTrpcHttp(original: Request, services: LoopServices, options: { trustProxy?: boolean } = {}): Promise<Response> {
  const refused = refuseUnsafeRequest(original, options.trustProxy);
  if (refused) return refused;
  const req = await withCheckedJson(original);
  if (req instanceof Response) return req;
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req,
    router: appRouter,
    createContext: ({ resHeaders }) => createRequestContext({ services, headers: req.headers, responseHeaders: resHeaders }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`tRPC ${path ?? "?"} failed:`, error.cause ?? error);
    },
  });
}
