/**
 * The client's socket address, stamped onto every incoming request before
 * Next.js sees it.
 *
 * Why: route handlers and server components only see headers, and every
 * address-like header is client-controlled. Next itself fills
 * X-Forwarded-For from the socket only when the client sent none, so a remote
 * client can claim `X-Forwarded-For: 127.0.0.1`. We patch the Node HTTP
 * server's "request" event (installed from instrumentation at start) to
 * overwrite our own header with the real peer address, whether the raw
 * request carried forwarding headers, and a per-process nonce. A request
 * whose stamp lacks the nonce was not stamped by this process (e.g. the patch
 * is missing in some deployment): readers then treat the peer as unknown, so
 * checks that need a trusted address fail closed.
 */
import { randomBytes } from "node:crypto";
import http, { type IncomingMessage } from "node:http";

export const PEER_HEADER = "x-ralph-peer";
const FORWARDING = [
  "forwarded",
  "x-forwarded-for",
  "x-real-ip",
  "x-forwarded-host",
  "x-client-ip",
  "cf-connecting-ip",
  "true-client-ip",
];

const store = globalThis as unknown as { ralphPeerNonce?: string; ralphPeerPatched?: boolean };
const nonce = () => (store.ralphPeerNonce ??= randomBytes(16).toString("hex"));

export interface PeerStamp {
  /** The socket's remote address (IPv4-mapped IPv6 unwrapped). */
  address: string;
  /** The raw request carried a forwarding header: a proxy (or a client) is speaking for someone else. */
  forwarded: boolean;
}

export function stampPeer(req: IncomingMessage): void {
  const forwarded = FORWARDING.some((name) => req.headers[name] !== undefined);
  req.headers[PEER_HEADER] = `${nonce()};${forwarded ? 1 : 0};${req.socket.remoteAddress ?? ""}`;
}

/** The stamp of this process, or null when absent or forged. */
export function readPeerStamp(headers: Headers): PeerStamp | null {
  const [got, forwarded, ...address] = (headers.get(PEER_HEADER) ?? "").split(";");
  if (got !== nonce() || (forwarded !== "0" && forwarded !== "1")) return null;
  return { address: address.join(";").replace(/^::ffff:/, ""), forwarded: forwarded === "1" };
}

/** Patches http.Server once per process; every server created before or after is covered. */
export function installPeerStamp(): void {
  if (store.ralphPeerPatched) return;
  store.ralphPeerPatched = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") stampPeer(args[0] as IncomingMessage);
    return emit.apply(this, [event, ...args] as unknown as Parameters<typeof emit>);
  } as typeof emit;
}

export const isLoopbackAddress = (address: string) =>
  /^127(\.\d{1,3}){3}$/.test(address) || address === "::1" || address === "0:0:0:0:0:0:0:1";
