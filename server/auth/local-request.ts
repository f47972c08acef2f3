/**
 * Is this request from the machine the server runs on? Used only by first-run
 * setup, which creates an admin without any credentials.
 *
 * Threat model: anyone who can reach the port before the first admin exists
 * could otherwise claim the instance. Headers are client-controlled, so the
 * decision rests on the socket's peer address stamped by the server itself
 * (server/auth/peer-address.ts), and additionally requires:
 * - no forwarding headers on the raw request: a reverse proxy on the same
 *   host would make every remote visitor look like loopback;
 * - a loopback Host header: a DNS-rebinding page in a local browser talks to
 *   127.0.0.1 but carries its own host name.
 * A same-host proxy that adds no forwarding header and rewrites Host to
 * localhost defeats this; create the admin with RALPH_ADMIN_EMAIL /
 * RALPH_ADMIN_PASSWORD before exposing such a setup (docs/operations.md).
 */
import { isLoopbackAddress, readPeerStamp } from "./peer-address";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function hostName(host: string | null): string {
  if (!host) return "";
  const h = host.trim().toLowerCase();
  return h.startsWith("[") ? h.slice(0, h.indexOf("]") + 1) : h.split(":")[0]!;
}

/** Why the request does not count as local, or null when it does. */
export function localRequestProblem(headers: Headers): string | null {
  const peer = readPeerStamp(headers);
  if (!peer) return "The server could not verify where this request came from.";
  if (!isLoopbackAddress(peer.address)) return "First-run setup is only available on the machine the server runs on.";
  if (peer.forwarded) return "First-run setup is not available through a proxy.";
  if (!LOOPBACK_HOSTS.has(hostName(headers.get("host"))))
    return "Open the setup page as http://localhost:<port>/setup on the server's machine.";
  return null;
}
