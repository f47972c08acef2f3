import type { Database } from "../db/client";
import type { LoopServices } from "../loops/loop-services";
import { clientIp } from "../auth/client-ip";
import { clearedSessionCookie, isHttps, readSessionToken } from "../auth/session-cookie";
import { resolveSession, type SessionPolicy } from "../auth/sessions.service";
import { LOCAL_OPERATOR, type Actor } from "../auth/actor";
import { readBearer, resolveApiToken } from "../auth/api-tokens.service";

export interface ApiContext {
  db: Database;
  services: LoopServices;
  /** Who is calling: the signed-in user, or null (anonymous). */
  actor: Actor | null;
  /** The session behind `actor` (null for anonymous and in-process callers). */
  sessionId: string | null;
  headers: Headers;
  /** Rate-limit key for this caller (socket address, or the proxy's view when trusted). */
  clientIp: string;
  /** Where procedures add Set-Cookie; null when there is no HTTP response (RSC, tests). */
  responseHeaders: Headers | null;
}

export interface ContextInput {
  services: LoopServices;
  headers?: Headers;
  actor?: Actor | null;
  sessionId?: string | null;
  responseHeaders?: Headers | null;
}

/**
 * In-process callers (tests, scripts): the actor is whatever the caller says,
 * the built-in local admin when it says nothing. HTTP requests and server
 * components never come through here; they use `createRequestContext`.
 */
export function createContext(input: ContextInput): ApiContext {
  const headers = input.headers ?? new Headers();
  return {
    db: input.services.db,
    services: input.services,
    actor: input.actor === undefined ? LOCAL_OPERATOR : input.actor,
    sessionId: input.sessionId ?? null,
    headers,
    clientIp: clientIp(headers, false),
    responseHeaders: input.responseHeaders ?? null,
  };
}

/**
 * HTTP requests (the tRPC route) and server components: the actor comes from
 * the `Authorization: Bearer` API token when the request has that header,
 * else from the session cookie; nothing valid means anonymous. A bearer
 * request never falls back to the cookie, and a token is never read from one.
 */
export async function createRequestContext(input: {
  services: LoopServices;
  headers: Headers;
  responseHeaders?: Headers | null;
  policy?: SessionPolicy;
}): Promise<ApiContext> {
  const bearer = readBearer(input.headers);
  if (bearer !== null) {
    const actor = bearer ? await resolveApiToken(input.services.db, bearer, input.services.engine.now()) : null;
    return {
      db: input.services.db,
      services: input.services,
      actor,
      sessionId: null,
      headers: input.headers,
      clientIp: clientIp(input.headers),
      responseHeaders: input.responseHeaders ?? null,
    };
  }
  const token = readSessionToken(input.headers);
  const session = await resolveSession(input.services.db, token, input.services.engine.now(), input.policy);
  // An expired or revoked cookie is dropped, so the next page load goes to sign-in.
  if (token && !session) input.responseHeaders?.append("set-cookie", clearedSessionCookie(isHttps(input.headers)));
  return {
    db: input.services.db,
    services: input.services,
    actor: session?.actor ?? null,
    sessionId: session?.sessionId ?? null,
    headers: input.headers,
    clientIp: clientIp(input.headers),
    responseHeaders: input.responseHeaders ?? null,
  };
}
