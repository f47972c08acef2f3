// The client address used to key per-IP rate limits and recorded on sessions.
import { getEnv } from "../env";
import { readPeerStamp } from "./peer-address";

/**
 * Behind a trusted reverse proxy (RALPH_TRUST_PROXY=true) the last
 * X-Forwarded-For entry is what the proxy saw; otherwise the socket address
 * stamped at the server, never a client-supplied header. Unknown (in-process
 * callers) maps to one shared "unknown" key.
 */
export function clientIp(headers: Headers, trustProxy = getEnv().RALPH_TRUST_PROXY): string {
  if (trustProxy) {
    const last = headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (last) return last.slice(0, 64);
  }
  return readPeerStamp(headers)?.address || "unknown";
}
