/**
 * Cross-site request forgery and content-type checks for state-changing
 * requests to the API. Reads (GET/HEAD) pass: no procedure changes state on a
 * query, and tRPC refuses mutations over GET.
 *
 * A state-changing request must:
 * - be a POST with `Content-Type: application/json`: an HTML form cannot send
 *   that type, and a cross-site fetch with it needs a CORS preflight we never
 *   answer;
 * - come from this origin: the Origin header (or, when a client sends none,
 *   the Referer) must name the host the request was sent to; a browser's
 *   `Sec-Fetch-Site: cross-site` is refused outright.
 * The session cookie is SameSite=Lax as well; these checks do not rely on it.
 *
 * A request carrying `Authorization: Bearer` (the CLI, CI) skips the origin
 * check: a browser attaches no such header on its own, and a page that sets
 * one cross-site needs a CORS preflight we never answer. Such a request is
 * judged by its token alone; the context ignores any cookie it brings.
 */
import { getEnv } from "../env";

const json = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

function originHost(value: string | null): string | null {
  if (!value || value === "null") return null;
  try {
    return new URL(value).host.toLowerCase();
  } catch {
    return null;
  }
}

/** The hosts this request may legitimately come from: its own Host (and the proxy's, when trusted). */
function ownHosts(headers: Headers, trustProxy: boolean): Set<string> {
  const hosts = new Set<string>();
  const host = headers.get("host")?.trim().toLowerCase();
  if (host) hosts.add(host);
  const forwarded = trustProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim().toLowerCase() : undefined;
  if (forwarded) hosts.add(forwarded);
  return hosts;
}

/** A refusal to send back, or null when the request may proceed. */
export function refuseUnsafeRequest(req: Request, trustProxy = getEnv().RALPH_TRUST_PROXY): Response | null {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return null;
  if (req.method !== "POST")
    return json(405, "METHOD_NOT_SUPPORTED", `${req.method} is not supported here; use POST with a JSON body`);

  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") {
    return json(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      `Send a JSON body with Content-Type: application/json (got ${type ? `"${type.slice(0, 60)}"` : "none"})`,
    );
  }
  if (req.headers.get("sec-fetch-site") === "cross-site")
    return json(403, "FORBIDDEN", "Cross-site requests are refused");

  if (/^Bearer\s/i.test(req.headers.get("authorization") ?? "")) return null;

  const hosts = ownHosts(req.headers, trustProxy);
  const origin = req.headers.get("origin");
  const from = origin !== null ? originHost(origin) : originHost(req.headers.get("referer"));
  if (!from) return json(403, "FORBIDDEN", "A same-origin Origin (or Referer) header is required for this request");
  if (!hosts.has(from))
    return json(403, "FORBIDDEN", `Requests from ${from} are refused; only this site may make changes`);
  return null;
}
