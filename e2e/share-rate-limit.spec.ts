// Issue 13: a rate-limited shared page answers HTTP 429 with Retry-After (the
// page itself cannot set a status; proxy.ts decides before it renders), and
// one address's bad links never block a valid link from that address.
//
// The limits are per client address, and every other spec comes from
// 127.0.0.1: this one speaks from other loopback addresses (127.0.0.2/3) so
// it fills its own buckets and leaves theirs alone.
import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { signIn, trpc } from "./support/auth";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(url: string, from: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress: from, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("a rate-limited shared page is a 429 with Retry-After; bad links never block a valid one", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "operator");
  const created = await trpc(page.request, "loops.create", {
    name: "Rate-limited share",
    goal: "be shared",
    agent: { kind: "demo", delayMs: 0, stepsToComplete: 1 },
    loop: { stop: { maxIterations: 1, noProgressIterations: 0 }, completion: { allowNoEvidence: true } },
  });
  expect(created.status, created.error?.message).toBe(200);
  const loopId = (created.data as { id: string }).id;
  const share = await trpc(page.request, "share.create", { loopId });
  expect(share.status).toBe(200);
  const valid = `${baseURL}${(share.data as { path: string }).path}`;

  // One address's bad links: 404s up to the miss limit (20), then 429 with Retry-After.
  const abuser = "127.0.0.2";
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++)
    statuses.push((await get(`${baseURL}/r/${"guess".padEnd(43, String(i % 10))}`, abuser)).status);
  expect(statuses).toEqual(Array(20).fill(404));
  const limited = await get(`${baseURL}/r/${"one-more".padEnd(43, "x")}`, abuser);
  expect(limited.status).toBe(429);
  expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  expect(limited.headers["content-type"]).toContain("text/html");
  // Readable without JavaScript: plain HTML, no script.
  expect(limited.body).toContain("Too many requests");
  expect(limited.body).not.toContain("<script");
  // The same address (a shared proxy, say) still opens a valid link: the miss limit holds misses only.
  const opened = await get(valid, abuser);
  expect(opened.status).toBe(200);
  expect(opened.body).toContain("Rate-limited share");

  // The lookup limit (300 a minute): fill it with the API's own lookups, then the page is a 429 too.
  const scraper = "127.0.0.3";
  const token = valid.split("/r/")[1]!;
  const input = encodeURIComponent(JSON.stringify({ json: { token } }));
  const origin = new URL(baseURL!).origin;
  let last = 200;
  for (let i = 0; i < 300 && last === 200; i++)
    last = (await get(`${baseURL}/api/trpc/share.view?input=${input}`, scraper, { origin })).status;
  const hammered = await get(valid, scraper);
  expect(hammered.status).toBe(429);
  expect(Number(hammered.headers["retry-after"])).toBeGreaterThan(0);
  expect(hammered.body).toContain("Too many shared-page requests");
  // Its exports agree (route handlers that answer 429 on their own).
  expect((await get(`${valid}/export/json`, scraper)).status).toBe(429);
  // Other addresses are untouched.
  expect((await get(valid, "127.0.0.1")).status).toBe(200);
});
