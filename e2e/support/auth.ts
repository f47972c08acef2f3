// Signing in from Playwright: `await signIn(page, "operator")` gives the page's
// browser context a real session cookie for a user with that role. Users other
// than the admin are created on first use through the admin's API session.
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_ADMIN, e2eAccount, type E2eRole } from "./accounts";

export { E2E_ADMIN, e2eAccount, type E2eRole };

const baseUrl = () => {
  const url = test.info().project.use.baseURL;
  if (!url) throw new Error("playwright.config.ts must set use.baseURL");
  return url;
};

export interface TrpcResult {
  status: number;
  /** The procedure's output on success (superjson's `json` part). */
  data?: unknown;
  /** tRPC's error, e.g. { message, code: -32603, data: { code: "FORBIDDEN", httpStatus: 403 } }. */
  error?: { message: string; data?: { code?: string; httpStatus?: number } };
}

/**
 * Calls one tRPC procedure over HTTP the way the app's client does (JSON body,
 * same-origin Origin header), from any request context: `page.request` shares
 * the page's cookies, `playwrightRequest.newContext()` has its own.
 */
export async function trpc(
  api: APIRequestContext,
  path: string,
  input?: unknown,
  kind: "query" | "mutation" = "mutation",
): Promise<TrpcResult> {
  const origin = new URL(baseUrl()).origin;
  const payload = JSON.stringify({ json: input ?? null });
  const response =
    kind === "query"
      ? await api.get(`/api/trpc/${path}?input=${encodeURIComponent(payload)}`, { headers: { origin } })
      : await api.post(`/api/trpc/${path}`, { data: payload, headers: { origin, "content-type": "application/json" } });
  const body = (await response.json().catch(() => ({}))) as {
    result?: { data?: { json?: unknown } };
    error?: { json?: TrpcResult["error"] };
  };
  return { status: response.status(), data: body.result?.data?.json, error: body.error?.json };
}

/** Signs `api` in (its cookie jar keeps the session). Throws with the server's message on failure. */
export async function signInApi(api: APIRequestContext, email: string, password: string) {
  const result = await trpc(api, "auth.signIn", { email, password });
  if (result.status !== 200) throw new Error(`sign-in as ${email} failed (${result.status}): ${result.error?.message}`);
  return result.data;
}

/** Creates the account for `role` if it does not exist yet (as the start-up admin). */
export async function ensureAccount(role: E2eRole) {
  const account = e2eAccount(role);
  if (role === "admin") return account;
  const admin = await playwrightRequest.newContext({ baseURL: baseUrl() });
  try {
    await signInApi(admin, E2E_ADMIN.email, E2E_ADMIN.password);
    const created = await trpc(admin, "users.create", {
      email: account.email,
      password: account.password,
      role,
      name: `E2E ${role}`,
    });
    // CONFLICT: an earlier spec of this run created it already.
    if (created.status !== 200 && created.error?.data?.code !== "CONFLICT") {
      throw new Error(`creating the ${role} account failed (${created.status}): ${created.error?.message}`);
    }
  } finally {
    await admin.dispose();
  }
  return account;
}

/**
 * Gives `page` a signed-in session as a user with `role` ("viewer", "operator"
 * or "admin"). Use at the start of a test, before `page.goto`.
 */
export async function signIn(page: Page, role: E2eRole) {
  const account = await ensureAccount(role);
  await signInApi(page.request, account.email, account.password);
  const cookies = await page.context().cookies();
  expect(
    cookies.some((c) => c.name === "ralph_session"),
    "the sign-in set the session cookie",
  ).toBe(true);
  return account;
}
