/**
 * The bridge between proxy.ts and shareAdmission (server/share). The proxy is bundled apart
 * from the server and must not pull in the database, so the server installs
 * the gate at start (server/system/server-start.ts) on a process-wide symbol
 * and the proxy calls it when it is there. Without it (a bare `next dev`
 * before start-up finished) the page renders and answers as before.
 * No imports: this file is safe in the proxy bundle.
 */
/** What server/share/share-admission.ts decides for one page request. */
export type ShareAdmission = { ok: true } | { ok: false; message: string; retryAfterSeconds: number };

export type SharePageGate = (token: string, headers: Headers) => Promise<ShareAdmission>;

const KEY = Symbol.for("ralph.sharePageGate");
const store = globalThis as unknown as Record<symbol, SharePageGate | undefined>;

export function installSharePageGate(gate: SharePageGate): void {
  store[KEY] = gate;
}

export const sharePageGate = (): SharePageGate | undefined => store[KEY];

/** `/r/<token>` itself; its exports are route handlers that answer 429 on their own. */
const SHARE_PAGE = /^\/r\/([^/]+)\/?$/;

export const sharePageToken = (pathname: string): string | null => {
  const match = SHARE_PAGE.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
};

/** The 429 a refused page gets: plain HTML (no script, nothing to load), readable without JavaScript. */
export function sharePageTooMany(message: string, retryAfterSeconds: number): Response {
  const escaped = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>Too many requests</title></head>` +
    `<body><main><h1>Too many requests</h1><p>${escaped}</p>` +
    `<p>This address opened too many shared pages. Wait a few minutes and reload.</p></main></body></html>\n`;
  return new Response(html, {
    status: 429,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "retry-after": String(retryAfterSeconds),
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "content-security-policy": "default-src 'none'",
      "x-robots-tag": "noindex",
    },
  });
}
