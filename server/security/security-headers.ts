/**
 * Security headers. Pages get a per-request nonce CSP from proxy.ts (built
 * here); every response also gets nosniff, Referrer-Policy, X-Frame-Options,
 * Permissions-Policy and COOP from next.config.mjs, and API responses a CSP
 * of "default-src 'none'; frame-ancestors 'none'".
 *
 * Scripts: nonce + 'strict-dynamic' (Next puts the nonce on its own inline and
 * bundle scripts when it sees it in the request's CSP; the theme script in
 * app/layout.tsx reads it from x-nonce). No 'unsafe-inline' for scripts.
 * Styles: 'unsafe-inline' because charts and components set style
 * attributes, which nonces cannot cover; style injection is a far smaller
 * risk than script injection.
 */
export function pageCsp(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    // The service worker (public/sw.js, Web Push notices): 'strict-dynamic' would otherwise refuse it.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
