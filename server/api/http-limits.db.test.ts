// Limits at the tRPC endpoint, through the same handler as the Next route:
// oversized bodies are refused before parsing or authentication, batches are
// capped, rate-limited procedures cannot ride in a batch, and hostile
// superjson `meta` is the client's error.
import { beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { createUser } from "../../test/auth-fixtures";
import { servicesWithoutJobs } from "../../test/trpc-http-server";
import { handleTrpcHttp, MAX_BATCH_SIZE } from "./http-handler";
import { TRPC_BODY_LIMIT } from "../request-body";

const ORIGIN = "http://limits.test";
const headers = { "content-type": "application/json", origin: ORIGIN, host: "limits.test" };

describeEachProvider("tRPC endpoint limits", ({ db }) => {
  const post = (path: string, body: BodyInit, extra: Record<string, string> = {}) =>
    handleTrpcHttp(
      new Request(`${ORIGIN}/api/trpc/${path}`, { method: "POST", headers: { ...headers, ...extra }, body }),
      servicesWithoutJobs(db()),
      { trustProxy: false },
    );
  let user: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    user = await createUser(db(), "operator");
  });

  it("an anonymous body over 1 MB is a 413, declared or streamed, and nothing is evaluated", async () => {
    const big = JSON.stringify({ json: { email: user.email, password: "x".repeat(TRPC_BODY_LIMIT) } });
    const declared = await post("auth.signIn", big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: { code: "PAYLOAD_TOO_LARGE", message: expect.any(String) } });
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const flood = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        controller.enqueue(chunk);
      },
    });
    const streamed = await handleTrpcHttp(
      new Request(`${ORIGIN}/api/trpc/auth.signIn`, {
        method: "POST",
        headers,
        body: flood,
        duplex: "half",
      } as RequestInit),
      servicesWithoutJobs(db()),
      { trustProxy: false },
    );
    expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(40); // stopped a little past 1 MB, not read forever
    expect(await db().prisma.rateLimitHit.count()).toBe(0);
  });

  it("malformed JSON and hostile superjson meta are 400s that say so", async () => {
    const broken = await post("auth.signIn", "{not json");
    expect(broken.status).toBe(400);
    expect(JSON.stringify(await broken.json())).toMatch(/not valid JSON/);
    for (const meta of [
      { values: { "__proto__.x": ["undefined"] } },
      { values: { a: ["class", "Foo"] } },
      { values: { "": ["custom", "Nope"] } },
      { referentialEqualities: { "": ["__proto__.polluted"] } },
    ]) {
      const res = await post("auth.signIn", JSON.stringify({ json: { a: { b: 1 } }, meta }));
      expect(res.status, JSON.stringify(meta)).toBe(400);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await post("auth.signIn", "null")).status).toBe(400);
    expect((await post("auth.signIn", "")).status).toBe(400);
  });

  it("a batch of sign-ins is refused whole, so guesses cannot outrun the rate limit; batches are capped", async () => {
    const guesses = Array.from({ length: 50 }, (_, i) => ({
      json: { email: user.email, password: i === 49 ? user.password : `wrong-password-${i}` },
    }));
    const paths = Array.from({ length: 20 }, () => "auth.signIn").join(",");
    const batch = await post(
      `${paths}?batch=1`,
      JSON.stringify(Object.fromEntries(guesses.slice(30).map((g, i) => [i, g]))),
    );
    expect(batch.status).toBe(400);
    expect(JSON.stringify(await batch.json())).toMatch(/auth\.signIn cannot be batched/);
    expect(batch.headers.getSetCookie()).toEqual([]);
    const share = await post("share.view,system.health?batch=1", JSON.stringify({ 0: { json: { token: "x" } } }));
    expect(share.status).toBe(400);
    const tooMany = Array.from({ length: MAX_BATCH_SIZE + 1 }, () => "system.health").join(",");
    const capped = await handleTrpcHttp(
      new Request(`${ORIGIN}/api/trpc/${tooMany}?batch=1&input=%7B%7D`, { headers: { host: "limits.test" } }),
      servicesWithoutJobs(db()),
      { trustProxy: false },
    );
    expect(capped.status).toBe(400);
    expect(JSON.stringify(await capped.json())).toMatch(/at most 25 calls/);
    // One sign-in alone, and an honest batch of queries, still work.
    expect((await post("auth.signIn?batch=1", JSON.stringify({ 0: guesses[49] }))).status).toBe(200);
    const fine = await handleTrpcHttp(
      new Request(`${ORIGIN}/api/trpc/system.health,auth.setupStatus?batch=1&input=%7B%7D`, {
        headers: { host: "limits.test" },
      }),
      servicesWithoutJobs(db()),
      { trustProxy: false },
    );
    expect(fine.status).toBe(200);
  });
});
