/**
 * A request path with a percent-escape that does not decode (`/api/trpc/%`,
 * `/r/%E0%A4%A`). Next's router decodes dynamic segments itself and answers
 * such a path with a bare 500 before any route code runs, so the proxy turns
 * it away first, as the client's mistake it is (400).
 */
export function hasMalformedEscape(rawPath: string): boolean {
  if (!rawPath.includes("%")) return false;
  try {
    decodeURIComponent(rawPath);
    return false;
  } catch {
    return true;
  }
}

export const malformedPathResponse = () =>
  new Response("Bad request: the address has a malformed percent-escape.\n", {
    status: 400,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
