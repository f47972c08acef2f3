/**
 * Outbound requests to operator-supplied URLs must not reach the server's own
 * network (cloud metadata at 169.254.169.254, databases on 10/8, admin ports
 * on loopback) unless an allowlist names the host. The check runs inside the
 * socket's DNS lookup, so the address connected to is the address checked
 * (no window for DNS rebinding between check and connect).
 */
import { lookup as dnsLookup } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { AgentError } from "./agent-error";

const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this network", including 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, bits, "ipv6");
}

/** The IPv4 address inside ::ffff:a.b.c.d, ::ffff:7f00:1, ::a.b.c.d or 64:ff9b::/96 forms. */
function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    return v4 !== null ? blocked.check(v4, "ipv4") : blocked.check(ip, "ipv6");
  }
  return true; // not an address at all: refuse rather than guess
}

const bare = (host: string) => host.replace(/^\[|\]$/g, "").toLowerCase();

/** "host", "host:port", "[::1]" or "[::1]:port" → host and port (null: any port). */
function parseEntry(entry: string): { host: string; port: string | null } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (v6) return { host: v6[1]!.toLowerCase(), port: v6[2] ?? null };
  const colon = entry.lastIndexOf(":");
  // A bare IPv6 address has several colons and no port.
  if (colon > 0 && entry.indexOf(":") === colon && /^\d+$/.test(entry.slice(colon + 1))) {
    return { host: entry.slice(0, colon).toLowerCase(), port: entry.slice(colon + 1) };
  }
  return { host: bare(entry), port: null };
}

export function hostAllowed(hostname: string, allowHosts: readonly string[]): boolean {
  const host = bare(hostname);
  return allowHosts.some((h) => parseEntry(h).host === host);
}

const portOf = (url: URL) => url.port || (url.protocol === "https:" ? "443" : "80");

/**
 * The allowlist entries that apply to this URL, as bare hosts: an entry with
 * a port (an admin's "127.0.0.1:11434") opens that port only.
 */
export function allowedForUrl(url: URL, allowHosts: readonly string[]): string[] {
  const port = portOf(url);
  return allowHosts
    .map(parseEntry)
    .filter((e) => e.port === null || e.port === port)
    .map((e) => e.host);
}

export const ssrfRefused = (host: string, why: string) =>
  new AgentError(
    "ssrf_refused",
    `Refused to call ${host}: ${why}. Add the host to the allowlist if this is intended.`,
    {
      retryable: false,
    },
  );

/**
 * Scheme and IP-literal checks; hostnames are checked again at connect time
 * by `guardedLookup(allowedForUrl(url, allowHosts))`.
 */
export function checkOutboundUrl(raw: string, allowHosts: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AgentError("config", `Invalid URL: ${raw}`, { retryable: false });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AgentError("config", `Only http and https URLs are allowed, not ${url.protocol}`, { retryable: false });
  }
  const host = bare(url.hostname);
  if (url.username || url.password)
    throw new AgentError("config", "Put credentials in a secret, not in the URL", { retryable: false });
  if (isIP(host) && isBlockedAddress(host) && !hostAllowed(host, allowedForUrl(url, allowHosts))) {
    throw ssrfRefused(host, "it is a loopback, private or link-local address");
  }
  return url;
}

/** A drop-in `lookup` for http.request that refuses private answers for hosts not on the allowlist. */
export function guardedLookup(allowHosts: readonly string[]): LookupFunction {
  return (hostname, opts, callback) => {
    const family = opts.family === "IPv4" ? 4 : opts.family === "IPv6" ? 6 : (opts.family ?? 0);
    dnsLookup(hostname, { family, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!hostAllowed(hostname, allowHosts)) {
        const bad = addresses.find((a) => isBlockedAddress(a.address));
        if (bad)
          return callback(
            ssrfRefused(hostname, `it resolves to ${bad.address}, a loopback, private or link-local address`),
            [],
          );
      }
      if (opts.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}
