// Which pages need no sign-in, and where a sign-in may send you next. Shared
// by proxy.ts, the root layout and the login page.
export const PUBLIC_PAGES = ["/login", "/setup"] as const;

/** Sign-in, first-run setup and shared read-only reports (/r/<token>). */
export function isPublicPage(pathname: string): boolean {
  return (PUBLIC_PAGES as readonly string[]).includes(pathname) || pathname.startsWith("/r/");
}

/** A local path only: "//evil.example" or "https://..." fall back to "/". */
export function safeNextPath(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  return value.slice(0, 500);
}

export const loginPath = (next: string) =>
  next && next !== "/" ? `/login?next=${encodeURIComponent(next)}` : "/login";
