// The session cookie: HttpOnly (no script can read it), SameSite=Lax (not sent
// on cross-site subrequests or form posts), Secure when the app is served
// over https, Path=/ and a Max-Age equal to the session's absolute lifetime.
export const SESSION_COOKIE = "ralph_session";

export function readCookie(headers: Headers, name: string): string | null {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

export const readSessionToken = (headers: Headers) => readCookie(headers, SESSION_COOKIE);

/**
 * https as the browser sees it: the first X-Forwarded-Proto value (set by a
 * TLS-terminating proxy, or by Next from the socket) or the request URL. A
 * client faking "https" only gets a cookie its own plain-http requests will
 * not carry.
 */
export function isHttps(headers: Headers, url?: string): boolean {
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (proto) return proto === "https";
  return url ? url.startsWith("https:") : false;
}

export function sessionCookie(token: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  const parts = [
    `${SESSION_COOKIE}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
  ];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

export const clearedSessionCookie = (secure: boolean) => sessionCookie("", { secure, maxAgeSeconds: 0 });
