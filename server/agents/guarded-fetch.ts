/**
 * A fetch for model providers that goes through the same SSRF guard as the
 * webhook agent: the URL is checked before the call, and every address the
 * socket connects to is checked inside its DNS lookup. Redirects are not
 * followed (a public host could otherwise bounce the key to 127.0.0.1).
 */
import { Agent, fetch as undiciFetch } from "undici";
import { AgentError } from "./agent-error";
import { allowedForUrl, checkOutboundUrl, guardedLookup } from "./ssrf-guard";

const agents = new Map<string, Agent>();

function agentFor(allowHosts: readonly string[]): Agent {
  const key = [...allowHosts].sort().join(",");
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({ connect: { lookup: guardedLookup(allowHosts) } });
    agents.set(key, agent);
  }
  return agent;
}

function refusalIn(error: unknown): AgentError | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof AgentError) return e;
  }
  return null;
}

const urlOf = (input: Parameters<typeof fetch>[0]) =>
  typeof input === "string" ? input : input instanceof URL ? input.href : input.url;

/**
 * `inner` replaces the transport (tests); the URL check applies to it too.
 * Without it, undici's fetch runs on an agent whose lookups are guarded.
 */
export function guardedFetch(allowHosts: readonly string[], inner?: typeof fetch): typeof fetch {
  return async (input, init) => {
    const url = checkOutboundUrl(urlOf(input), allowHosts);
    if (inner) return inner(input, { ...init, redirect: "manual" });
    try {
      const response = await undiciFetch(url.href, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        redirect: "manual",
        dispatcher: agentFor(allowedForUrl(url, allowHosts)),
      });
      return response as unknown as Response;
    } catch (error) {
      // A refusal inside the socket's lookup arrives as "fetch failed": say what it was (and that a retry is useless).
      throw refusalIn(error) ?? error;
    }
  };
}
