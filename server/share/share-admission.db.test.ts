// The shared page's 429 (issue 13), through proxy.ts itself: a Request in, a
// Response out, with the admission check on a real database. The page's own
// lookups are recorded by resolveShareToken as the page would record them.
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { afterEach, expect, it } from "vitest";
import { proxy } from "../../proxy";
import { describeEachProvider } from "../../test/db-providers";
import { installSharePageGate, sharePageGate, type SharePageGate } from "../auth/share-page-gate";
import { shareAdmission, PAGE_LOOKUPS } from "./share-admission";
import { createShareLink, resolveShareToken, SHARE_LOOKUP_LIMIT, SHARE_MISS_LIMIT } from "./share-links.service";

const T0 = Date.UTC(2026, 6, 2);

describeEachProvider("shared page admission", ({ db }) => {
  const before = sharePageGate();
  afterEach(() => installSharePageGate(before as SharePageGate));

  async function link() {
    const loopId = randomUUID();
    await db().prisma.loop.create({ data: { id: loopId, goal: "Share me", agentKind: "demo", config: {} } });
    const created = await createShareLink(db(), { loopId, expiresAt: null, createdById: null, newId: randomUUID });
    return created.path.slice("/r/".length);
  }
  /** The gate as start-up installs it, with the caller's address from a test header and a fixed clock. */
  const install = (now: number) =>
    installSharePageGate((token, headers) => shareAdmission(db(), token, headers.get("x-test-ip") ?? "?", now));
  const open = (path: string, ip: string) =>
    proxy(new NextRequest(`http://127.0.0.1${path}`, { headers: { "x-test-ip": ip } }));

  it("misses up to the limit pass to the page (its 404); the next is a 429 with Retry-After; a valid link still opens", async () => {
    const token = await link();
    const ip = "198.51.100.1";
    install(T0 + 1_000);
    for (let i = 0; i < SHARE_MISS_LIMIT.max; i++) {
      const bad = `bad${i}`.padEnd(43, "x");
      expect((await open(`/r/${bad}`, ip)).status).not.toBe(429);
      expect(await resolveShareToken(db(), bad, ip, T0 + i)).toBeNull(); // the page's own lookup
    }
    const refused = await open(`/r/${"one-more".padEnd(43, "x")}`, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(599);
    expect(refused.headers.get("content-type")).toContain("text/html");
    const body = await refused.text();
    expect(body).toContain("Too many invalid share links");
    expect(body).not.toContain("<script");
    // Behind one proxy address, 20 bad links must not block a valid one.
    expect((await open(`/r/${token}`, ip)).status).not.toBe(429);
    expect(await resolveShareToken(db(), token, ip, T0 + 1_001)).not.toBeNull();
    // Exports are route handlers with their own 429; the proxy leaves them alone.
    expect((await open(`/r/${"one-more".padEnd(43, "x")}/export/json`, ip)).status).not.toBe(429);
    // Another address is untouched.
    expect((await open(`/r/${"other".padEnd(43, "x")}`, "198.51.100.2")).status).not.toBe(429);
  });

  it("a page is admitted only while both of its lookups fit in the window", async () => {
    const token = await link();
    const ip = "198.51.100.3";
    install(T0 + 2_000);
    for (let i = 0; i < SHARE_LOOKUP_LIMIT.max - PAGE_LOOKUPS; i++)
      await resolveShareToken(db(), token, ip, T0 + 1_000 + (i % 900));
    expect((await open(`/r/${token}`, ip)).status).not.toBe(429);
    await resolveShareToken(db(), token, ip, T0 + 1_999);
    const refused = await open(`/r/${token}`, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Too many shared-page requests");
  });

  it("a gate that fails lets the page answer for itself", async () => {
    installSharePageGate(() => Promise.reject(new Error("database down")));
    expect((await open(`/r/${"x".repeat(43)}`, "198.51.100.4")).status).not.toBe(429);
  });
});
