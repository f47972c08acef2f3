// Runs before every page request (not API routes or static files):
// - a fresh CSP nonce per request (Next applies it to its own scripts);
// - no session cookie on a private page → /login?next=<path>. The cookie is
//   only checked for shape here; the session itself is verified by the
//   server (tRPC context, and app/layout.tsx for full page loads);
// - a path whose percent-escapes do not decode → 400 (Next's router would answer
//   500 before any route ran; API routes come through here for this alone);
// - a shared page (/r/<token>) over its address's rate limit → a real 429
//   with Retry-After, which the page itself cannot answer (see
//   server/share/share-admission.ts).
import { NextResponse, type NextRequest } from "next/server";
import { hasMalformedEscape, malformedPathResponse } from "@/server/request-path";
import { SESSION_COOKIE } from "@/server/auth/session-cookie";
import { looksLikeToken } from "@/server/auth/tokens";
import { isPublicPage, loginPath } from "@/lib/auth/paths";
import { pageCsp } from "@/server/security/security-headers";
import { sharePageGate, sharePageToken, sharePageTooMany } from "@/server/auth/share-page-gate";

// Build-time constant (like NEXT_RUNTIME in instrumentation.ts), not configuration.
// eslint-disable-next-line no-restricted-syntax
const DEV = process.env.NODE_ENV === "development";

export async function proxy(request: NextRequest) {
  if (hasMalformedEscape(new URL(request.url).pathname)) return malformedPathResponse();
  const { pathname, search } = request.nextUrl;
  if (pathname.startsWith("/api/")) return NextResponse.next();
  const limited = await sharePageLimited(pathname, request.headers);
  if (limited) return limited;
  const token = request.cookies.get(SESSION_COOKIE)?.value;
  if (!isPublicPage(pathname) && !(token && looksLikeToken(token))) {
    return NextResponse.redirect(new URL(loginPath(pathname + search), request.url));
  }

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = pageCsp(nonce, { dev: DEV });
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("x-ralph-path", pathname);
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  return response;
}

/** The 429 for a shared page its caller may not open now, or null. A gate that fails lets the page answer for itself. */
async function sharePageLimited(pathname: string, headers: Headers): Promise<Response | null> {
  const token = sharePageToken(pathname);
  const gate = token === null ? undefined : sharePageGate();
  if (!gate || token === null) return null;
  const admission = await gate(token, headers).catch(() => ({ ok: true as const }));
  return admission.ok ? null : sharePageTooMany(admission.message, admission.retryAfterSeconds);
}

export const config = {
  // The app icons in public/ load on the sign-in page too, so they are never redirected; nor are the
  // web app manifest and the service worker, which the browser fetches by itself.
  // API paths only when they hold a "%": the rest of the API never pays for the proxy.
  matcher: [
    "/((?!api/|_next/static|_next/image|favicon.ico|icons/|robots.txt|sw.js|manifest.webmanifest).*)",
    "/api/:path(.*%.*)",
  ],
};
