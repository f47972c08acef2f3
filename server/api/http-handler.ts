// The tRPC endpoint over HTTP: request-safety checks first, then the fetch
// adapter with a context built from the session cookie. The Next route handler
// and in-process test servers both use this.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { LoopServices } from "../loops/loop-services";
import { createRequestContext } from "./context";
import { refuseUnsafeRequest } from "./request-guard";
import { appRouter } from "./root";
import { toTRPCError } from "./error-map";
import { bodyOr413, TRPC_BODY_LIMIT } from "../request-body";
import { hasMalformedEscape } from "../request-path";

export const TRPC_ENDPOINT = "/api/trpc";
/** Seconds a client waits before retrying a 503 (a PostgreSQL restart takes a few). */
export const RETRY_AFTER_S = "2";

/**
 * Batching is for page loads. Each call of a batch runs at once, so a batch of
 * sign-ins (or share lookups) would be judged against its rate limit before
 * any of its failures counted: these go alone.
 */
const UNBATCHABLE = new Set([
  "auth.signIn",
  "auth.setup",
  "auth.changePassword",
  "users.resetPassword",
  "share.view",
  "share.iterations",
]);
/** The browser's batch link sends a page's queries together; none sends more than this. */
export const MAX_BATCH_SIZE = 25;

const refusal = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status });

/**
 * A path whose percent-escape does not decode (`/api/trpc/%`). proxy.ts turns
 * these away before Next's router; this covers every other way in (the
 * in-process test servers, a custom server) so none can become a 500.
 */
function refuseMalformedPath(req: Request): Response | null {
  if (!hasMalformedEscape(new URL(req.url).pathname)) return null;
  return refusal(400, "BAD_REQUEST", "The address has a malformed percent-escape");
}

function refuseBatch(req: Request): Response | null {
  const url = new URL(req.url);
  if (url.searchParams.get("batch") !== "1") return null;
  let calls: string[];
  try {
    calls = decodeURIComponent(url.pathname.slice(TRPC_ENDPOINT.length + 1)).split(",");
  } catch {
    return refusal(404, "NOT_FOUND", "No such procedure");
  }
  if (calls.length > MAX_BATCH_SIZE)
    return refusal(400, "BAD_REQUEST", `A batch may hold at most ${MAX_BATCH_SIZE} calls (got ${calls.length})`);
  const alone = calls.length > 1 ? calls.find((path) => UNBATCHABLE.has(path)) : undefined;
  return alone ? refusal(400, "BAD_REQUEST", `${alone} cannot be batched with other calls; send it alone`) : null;
}

/**
 * The body is read with a ceiling (413 past it). Malformed JSON is the
 * client's mistake: say so with a 400 instead of letting it surface as an
 * internal error.
 */
async function withCheckedJson(req: Request): Promise<Request | Response> {
  if (req.method !== "POST") return req;
  const body = await bodyOr413(req, TRPC_BODY_LIMIT);
  if (body instanceof Response) return body;
  try {
    if (body !== "") JSON.parse(body);
  } catch (error) {
    return Response.json(
      { error: { code: "PARSE_ERROR", message: `The request body is not valid JSON: ${(error as Error).message}` } },
      { status: 400 },
    );
  }
  return new Request(req, { body });
}

export async function handleTrpcHttp(
  original: Request,
  services: LoopServices,
  options: { trustProxy?: boolean } = {},
): Promise<Response> {
  const refused =
    refuseUnsafeRequest(original, options.trustProxy) ?? refuseMalformedPath(original) ?? refuseBatch(original);
  if (refused) return refused;
  const req = await withCheckedJson(original);
  if (req instanceof Response) return req;
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req,
    router: appRouter,
    maxBatchSize: MAX_BATCH_SIZE,
    // Reading the session touches the database: an outage there is a 503 too.
    createContext: ({ resHeaders }) =>
      createRequestContext({ services, headers: req.headers, responseHeaders: resHeaders }).catch((error: unknown) => {
        throw toTRPCError(error);
      }),
    // A 503 (database restarting, pool exhausted) says when to come back.
    responseMeta: ({ errors }) =>
      errors.some((e) => e.code === "SERVICE_UNAVAILABLE") ? { headers: { "retry-after": RETRY_AFTER_S } } : {},
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`tRPC ${path ?? "?"} failed:`, error.cause ?? error);
    },
  });
}
