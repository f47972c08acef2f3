import { describe, expect, it } from "vitest";
import { refuseUnsafeRequest } from "./request-guard";

const url = "http://app.local:3000/api/trpc/loops.controls.kill";
const post = (headers: Record<string, string>, body = "{}") =>
  new Request(url, { method: "POST", headers: { host: "app.local:3000", ...headers }, body });
const refusal = async (req: Request, trustProxy = false) => {
  const res = refuseUnsafeRequest(req, trustProxy);
  return res ? { status: res.status, body: (await res.json()) as { error: { code: string; message: string } } } : null;
};

describe("request guard (CSRF and content type)", () => {
  it("lets same-origin JSON posts and every read through", async () => {
    expect(await refusal(post({ "content-type": "application/json", origin: "http://app.local:3000" }))).toBeNull();
    expect(
      await refusal(
        post({ "content-type": "application/json; charset=utf-8", referer: "http://app.local:3000/loops/x" }),
      ),
    ).toBeNull();
    expect(await refusal(new Request(url, { headers: { origin: "https://evil.example" } }))).toBeNull();
  });

  it.each([["application/x-www-form-urlencoded"], ["multipart/form-data; boundary=x"], ["text/plain"]])(
    "refuses a %s post with 415 and says what to send",
    async (type) => {
      const r = await refusal(post({ "content-type": type, origin: "http://app.local:3000" }));
      expect(r?.status).toBe(415);
      expect(r?.body.error.message).toContain("application/json");
    },
  );

  it("refuses a foreign, missing or opaque origin with 403", async () => {
    const foreign = await refusal(post({ "content-type": "application/json", origin: "https://evil.example" }));
    expect(foreign).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    expect(foreign?.body.error.message).toContain("evil.example");
    expect((await refusal(post({ "content-type": "application/json" })))?.status).toBe(403);
    expect((await refusal(post({ "content-type": "application/json", origin: "null" })))?.status).toBe(403);
    expect(
      (await refusal(post({ "content-type": "application/json", referer: "https://evil.example/x" })))?.status,
    ).toBe(403);
    // A sibling port is another origin.
    expect((await refusal(post({ "content-type": "application/json", origin: "http://app.local:4000" })))?.status).toBe(
      403,
    );
  });

  it("refuses browser cross-site fetches even with a matching Origin", async () => {
    const r = await refusal(
      post({ "content-type": "application/json", origin: "http://app.local:3000", "sec-fetch-site": "cross-site" }),
    );
    expect(r?.status).toBe(403);
  });

  it("trusts X-Forwarded-Host only behind a trusted proxy", async () => {
    const viaProxy = post({
      "content-type": "application/json",
      origin: "https://ralph.example.com",
      "x-forwarded-host": "ralph.example.com",
    });
    expect((await refusal(viaProxy, false))?.status).toBe(403);
    expect(await refusal(viaProxy, true)).toBeNull();
  });

  it("refuses other methods with 405", async () => {
    expect((await refusal(new Request(url, { method: "PUT", body: "{}" })))?.status).toBe(405);
  });
});
