// Request safety against the built app over real HTTP: security headers,
// CSRF and content-type refusals, unsigned job calls, the one-time setup,
// share-link revocation, and secrets never coming back out.
import { expect, test } from "@playwright/test";
import { E2E_ADMIN, signIn, signInApi, trpc } from "./support/auth";

test.describe("request safety", () => {
  test("pages and API responses carry the security headers", async ({ request }) => {
    const page = await request.get("/login");
    expect(page.status()).toBe(200);
    const csp = page.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    // Next puts the same nonce on its own scripts.
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(await page.text()).toContain(`nonce="${nonce}"`);

    for (const res of [page, await request.get("/api/health"), await request.get("/api/trpc/system.health")]) {
      const h = res.headers();
      expect(h["x-content-type-options"]).toBe("nosniff");
      expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(h["x-frame-options"]).toBe("DENY");
      expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
    }
  });

  test("a malformed percent-escape in the path is a 400, never a 500 (issue 32's fuzz finds)", async ({ request }) => {
    // Next's router decodes dynamic segments before any route code runs and answered these with a bare 500.
    const paths = [
      "/api/trpc/%",
      "/api/trpc/loops.list%",
      "/r/%E0%A4%A",
      "/r/%E0%A4%A/export/json",
      "/r/%E0%A4%A/export/markdown",
      "/loops/%C3%28",
    ];
    for (const path of paths) {
      const res = await request.get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBe(400);
    }
    await signInApi(request, E2E_ADMIN.email, E2E_ADMIN.password);
    expect((await request.get("/api/trpc/%")).status()).toBe(400);
    // A well-formed escape still reaches its route.
    expect((await request.get("/api/trpc/system.health%2C")).status()).toBe(404);
  });

  test("private pages redirect to sign-in; the API answers 401", async ({ request }) => {
    const page = await request.get("/settings", { maxRedirects: 0 });
    expect(page.status()).toBe(307);
    expect(page.headers()["location"]).toBe("/login?next=%2Fsettings");
    const api = await request.get(`/api/trpc/loops.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`);
    expect(api.status()).toBe(401);
  });

  test("a well-formed but dead session cookie lands on sign-in, not on an error", async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: "ralph_session", value: "A".repeat(43), url: baseURL! }]);
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login\?next=%2Fsettings$/);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });

  test("cross-site form posts, foreign origins and wrong content types are refused", async ({ request, baseURL }) => {
    await signInApi(request, E2E_ADMIN.email, E2E_ADMIN.password);
    const create = { json: { goal: "csrf probe", agent: { kind: "demo" }, start: false } };
    const form = await request.post("/api/trpc/loops.create", {
      form: { goal: "csrf probe" },
      headers: { origin: "https://evil.example" },
    });
    expect(form.status()).toBe(415);
    expect(await form.json()).toMatchObject({ error: { code: "UNSUPPORTED_MEDIA_TYPE" } });
    const textPlain = await request.post("/api/trpc/loops.create", {
      data: JSON.stringify(create),
      headers: { "content-type": "text/plain", origin: baseURL! },
    });
    expect(textPlain.status()).toBe(415);
    const foreign = await request.post("/api/trpc/loops.create", {
      data: create,
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status()).toBe(403);
    expect((await foreign.json()).error.message).toContain("evil.example");
    const noOrigin = await request.post("/api/trpc/loops.create", { data: create });
    expect(noOrigin.status()).toBe(403);
    const malformed = await request.post("/api/trpc/loops.create", {
      data: "{nope",
      headers: { "content-type": "application/json", origin: baseURL! },
    });
    expect(malformed.status()).toBe(400);
    const invalid = await trpc(request, "loops.create", { goal: "", agent: { kind: "demo" } });
    expect(invalid.status).toBe(400);
    expect(invalid.error?.message).toBeTruthy();
    const list = await trpc(request, "loops.list", { text: "csrf probe" }, "query");
    expect((list.data as { total: number }).total).toBe(0);
  });

  test("job routes refuse unsigned and forged calls", async ({ request }) => {
    const body = JSON.stringify({ loopId: "any" });
    const unsigned = await request.post("/api/jobs/run", {
      data: body,
      headers: { "content-type": "application/json" },
    });
    expect(unsigned.status()).toBe(401);
    expect(await unsigned.json()).toEqual({ error: "invalid or missing job signature" });
    const forged = await request.post("/api/jobs/run", {
      data: body,
      headers: { "content-type": "application/json", "x-ralph-signature": `t=${Date.now()},v1=${"0".repeat(64)}` },
    });
    expect(forged.status()).toBe(401);
  });

  test("first-run setup is gone once an admin exists", async ({ request }) => {
    expect((await request.get("/setup")).status()).toBe(404);
    const again = await trpc(request, "auth.setup", { email: "late@ralph.test", password: "late-admin-password" });
    expect(again.status).toBe(409);
  });

  test("secrets are write-only: never in an API response or page", async ({ page }) => {
    await signIn(page, "admin");
    const value = `sk-e2e-${Date.now()}-abcdefghijklmnop`;
    const set = await trpc(page.request, "secrets.set", { name: "E2E_PROVIDER_KEY", kind: "provider_key", value });
    expect(set.status).toBe(200);
    expect(set.data).toMatchObject({ name: "E2E_PROVIDER_KEY", status: "set", last4: "mnop" });
    const responses: string[] = [];
    page.on(
      "response",
      (res) =>
        void res.text().then(
          (t) => responses.push(t),
          () => undefined,
        ),
    );
    await page.goto("/settings");
    const secrets = page.getByRole("region", { name: "Secrets" });
    await expect(secrets.getByText("E2E_PROVIDER_KEY", { exact: true })).toBeVisible();
    await expect(secrets.getByText("…mnop")).toBeVisible();
    const texts = [
      JSON.stringify(set),
      JSON.stringify(await trpc(page.request, "secrets.list", undefined, "query")),
      await page.content(),
      ...responses,
    ];
    for (const text of texts) expect(text).not.toContain(value);
  });

  test("a revoked share link answers 404 on the next request", async ({ request, playwright, baseURL }) => {
    await signInApi(request, E2E_ADMIN.email, E2E_ADMIN.password);
    const loop = await trpc(request, "loops.create", {
      goal: "shared loop",
      agent: { kind: "demo" },
      loop: { completion: { allowNoEvidence: true } },
      start: false,
    });
    const loopId = (loop.data as { id: string }).id;
    const link = await trpc(request, "share.create", { loopId });
    const token = (link.data as { path: string }).path.split("/").pop()!;
    const anonymous = await playwright.request.newContext({ baseURL });
    expect((await trpc(anonymous, "share.view", { token }, "query")).status).toBe(200);
    await trpc(request, "share.revoke", { id: (link.data as { id: string }).id });
    const gone = await trpc(anonymous, "share.view", { token }, "query");
    expect(gone.status).toBe(404);
    await anonymous.dispose();
  });
});
