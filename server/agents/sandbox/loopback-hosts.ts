/**
 * Allow-list entries as the sandbox will apply them, checked by one function
 * at create time (agent-policy.ts) and at run time (isolated-process.ts).
 *
 * A model server on this machine's loopback (Ollama on 127.0.0.1:11434, a
 * LiteLLM proxy) is not reachable by simply allowing it: inside the sandbox
 * 127.0.0.1 and localhost are the sandbox's own, empty loopback (and in
 * NO_PROXY, so clients never ask the proxy). So for each allowed loopback
 * `host:port` (127.0.0.1, localhost, or a name of this machine that resolves
 * to loopback) the sandbox gets a small socat listener on its own
 * 127.0.0.1:port that tunnels through the sandbox proxy (HTTP CONNECT, with
 * the command's own proxy credentials) to that port on the host; the proxy
 * still applies the allow list. A name is added to NO_PROXY so clients go to
 * the listener rather than ask the proxy for a name it would refuse.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/** `host` or `host:port`; IPv6 in brackets. Null when the entry is not of that shape. */
export function splitHostEntry(entry: string): { host: string; port: number | null } | null {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9*.-]+)(?::([1-9][0-9]{0,4}))?$/i.exec(entry);
  if (!m) return null;
  const port = m[2] ? Number(m[2]) : null;
  if (port !== null && port > 65535) return null;
  return { host: m[1]!.toLowerCase(), port };
}

const isLoopbackName = (host: string) => host === "localhost" || host.endsWith(".localhost");
const isLoopbackIp = (host: string) => (isIP(host) === 4 && host.startsWith("127.")) || host === "[::1]";

/** The sandbox runtime's own rule for a host pattern (domain-pattern.js, isValidDomainPattern); pinned by a test. */
function runtimeAcceptsHost(host: string): boolean {
  if (host.startsWith("[")) return isIP(host.slice(1, -1)) === 6;
  if (host === "localhost") return true;
  if (host.startsWith("*.")) {
    const parts = host.slice(2).split(".");
    return parts.length >= 2 && parts.every((p) => p.length > 0);
  }
  if (host.includes("*")) return false;
  return host.includes(".") && !host.startsWith(".") && !host.endsWith(".");
}

type Resolver = (host: string) => Promise<string[]>;
const systemResolver: Resolver = async (host) => {
  try {
    return (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return [];
  }
};

/** The name resolves on this machine, and only to loopback addresses. */
async function namesThisMachine(host: string, resolve: Resolver): Promise<boolean> {
  if (isIP(host) !== 0 || host.startsWith("*.") || host.startsWith("[")) return false;
  const addresses = await resolve(host);
  return addresses.length > 0 && addresses.every((a) => a.startsWith("127.") || a === "::1");
}

/**
 * Whose list an entry is on. Names of this machine (resolving to loopback)
 * are forwarded for the admin's RALPH_AGENT_ALLOW_HOSTS only: a loop's own
 * name could be re-pointed at 127.0.0.1 after create (DNS is not ours), so
 * the loop's names always go through the proxy, which refuses loopback.
 */
export type HostListOwner = "admin" | "loop";

/**
 * Why the sandbox cannot use `entry` as an allow-list entry, or null. The
 * same answer at create and at run time: what this accepts works, what it
 * refuses would fail (the runtime's "invalid allowedDomains entry", or a
 * loopback service the command could never reach).
 */
export async function sandboxHostProblem(
  entry: string,
  owner: HostListOwner,
  resolve: Resolver = systemResolver,
): Promise<string | null> {
  const split = splitHostEntry(entry);
  if (!split) return `${entry} is not a host or host:port`;
  const { host, port } = split;
  if (host === "[::1]") return `${entry}: use 127.0.0.1${port ? `:${port}` : ":<port>"} for this machine's loopback`;
  const literal = isLoopbackIp(host) || isLoopbackName(host);
  const named = !literal && (await namesThisMachine(host, resolve));
  if (named && owner === "loop") {
    return `${entry} names this machine; a loop may list 127.0.0.1:<port> instead (admins), or an admin lists the name in RALPH_AGENT_ALLOW_HOSTS`;
  }
  if ((literal || named) && port === null) {
    return `${entry} is this machine: name its port too (${host}:11434); only listed ports are forwarded into the sandbox`;
  }
  if (literal || named) return null;
  if (!runtimeAcceptsHost(host)) {
    return `${entry}: the sandbox takes a domain with a dot (example.com), *.example.com, localhost or an IP address, with an optional :port`;
  }
  return null;
}

/** A loopback address or name, or a name of this machine: only an admin may open one. */
export async function isThisMachine(entry: string, resolve: Resolver = systemResolver): Promise<boolean> {
  const split = splitHostEntry(entry);
  if (!split) return false;
  return isLoopbackIp(split.host) || isLoopbackName(split.host) || (await namesThisMachine(split.host, resolve));
}

export interface LoopbackForward {
  port: number;
  /** Where the proxy connects on the host: 127.0.0.1 (any loopback address) or localhost. */
  target: string;
  /** Names to add to NO_PROXY inside, so clients connect to the listener. */
  names: string[];
}

export interface SandboxHosts {
  /** Entries for the sandbox's allow list (loopback names become their address). */
  allowed: string[];
  forwards: LoopbackForward[];
  /** Entries the sandbox cannot use, with why (a run-time config error for the loop's own; skipped for the admin's). */
  problems: string[];
}

/** Turns allow-list entries into what the sandbox applies: the list and the loopback ports to forward. */
export async function sandboxHosts(
  entries: readonly string[],
  owner: HostListOwner,
  resolve: Resolver = systemResolver,
): Promise<SandboxHosts> {
  const allowed = new Set<string>();
  const forwards = new Map<number, LoopbackForward>();
  const problems: string[] = [];
  for (const entry of entries) {
    const problem = await sandboxHostProblem(entry, owner, resolve);
    if (problem) {
      problems.push(problem);
      continue;
    }
    const { host, port } = splitHostEntry(entry)!;
    const name =
      owner === "admin" &&
      !isLoopbackIp(host) &&
      !isLoopbackName(host) &&
      port !== null &&
      (await namesThisMachine(host, resolve));
    if (port === null || (!isLoopbackIp(host) && !isLoopbackName(host) && !name)) {
      allowed.add(entry);
      continue;
    }
    const target = isLoopbackName(host) ? "localhost" : name ? "127.0.0.1" : host;
    allowed.add(`${target}:${port}`);
    const forward = forwards.get(port) ?? { port, target, names: [] };
    if (name && !forward.names.includes(host)) forward.names.push(host);
    forwards.set(port, forward);
  }
  return { allowed: [...allowed], forwards: [...forwards.values()], problems };
}

/**
 * NO_PROXY and no_proxy with the forwarded names added, as the forward script
 * exports them. A warm sandbox runs that script once in its holder, whose
 * exports never reach the commands that enter it later: they get these.
 */
export function withForwardNames(
  env: Record<string, string>,
  forwards: readonly LoopbackForward[],
): Record<string, string> {
  const names = forwards.flatMap((f) => f.names);
  if (names.length === 0) return env;
  const add = (v: string | undefined) => [...(v ? [v] : []), ...names].join(",");
  return { ...env, NO_PROXY: add(env.NO_PROXY), no_proxy: add(env.no_proxy) };
}

/**
 * The shell lines that start the forwarders inside the sandbox, before the
 * command: the proxy's address and this command's credentials come from the
 * sandbox's own HTTP_PROXY. Each listener is waited for (its port in
 * /proc/net/tcp), so the command's first connection finds it.
 */
export function forwardScript(forwards: readonly LoopbackForward[]): string {
  if (forwards.length === 0) return "";
  const lines = [
    '__p="${HTTP_PROXY#*://}"; __auth="${__p%@*}"; __hp="${__p##*@}"; __hp="${__hp%/}"',
    '__auth="${__auth//%3D/=}"; __auth="${__auth//%3d/=}"; __auth="${__auth//%2B/+}"; __auth="${__auth//%2b/+}"; __auth="${__auth//%2F//}"; __auth="${__auth//%2f//}"',
  ];
  const names = forwards.flatMap((f) => f.names);
  if (names.length > 0) {
    const list = names.join(",");
    lines.push(`export NO_PROXY="\${NO_PROXY:+$NO_PROXY,}${list}" no_proxy="\${no_proxy:+$no_proxy,}${list}"`);
  }
  for (const f of forwards) {
    const hex = f.port.toString(16).toUpperCase().padStart(4, "0");
    lines.push(
      `socat TCP-LISTEN:${f.port},bind=127.0.0.1,fork,reuseaddr PROXY:"\${__hp%:*}":${f.target}:${f.port},proxyport="\${__hp##*:}",proxyauth="$__auth" </dev/null >/dev/null 2>&1 & ` +
        // Up to 5 s for the relay to listen: on a loaded machine socat took over the old 1 s, and the
        // command's first call was refused ("Failed to connect … after 0 ms").
        `for __i in $(seq 500); do grep -q ":${hex} 00000000:0000 0A" /proc/net/tcp && break; sleep 0.01; done`,
    );
  }
  lines.push("unset __p __auth __hp __i");
  return lines.join("; ") + "; ";
}
