import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageLimitResetAt, usageLimitSignalOf } from "../engine";
import { AgentError } from "./agent-error";
import { request, tempRoot, testDeps } from "./fixtures/harness";
import { isBlockedAddress } from "./ssrf-guard";
import { createWebhookAgent } from "./webhook.executor";
import { webhookAgentSchema } from "./webhook.schema";

const KEY = "whsec-test-0123456789";
const tmp = tempRoot();
let server: Server;
let port = 0;
const received: { body: Record<string, unknown>; verified: boolean; timestamp: string | undefined }[] = [];
let respond: (
  body: Record<string, unknown>,
) => { status: number; body: string; headers?: Record<string, string> } | null = () => null;

/** The receiving side, as an integrator would write it: verify the HMAC over the raw body. */
function verify(raw: string, header: string | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac("sha256", KEY).update(raw).digest("hex")}`);
  const got = Buffer.from(header ?? "");
  return got.length === expected.length && timingSafeEqual(got, expected);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const verified = verify(raw, req.headers["x-ralph-signature"] as string | undefined);
      received.push({ body, verified, timestamp: req.headers["x-ralph-timestamp"] as string | undefined });
      if (!verified) return void res.writeHead(401).end("bad signature");
      const reply = respond(body);
      if (reply === null) return; // hang: the agent's timeout must fire
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

const agent = (config: Record<string, unknown> = {}) =>
  createWebhookAgent(
    webhookAgentSchema.parse({
      kind: "webhook",
      url: `http://127.0.0.1:${port}/agent`,
      signingKeySecret: "hook",
      allowHosts: ["127.0.0.1"],
      ...config,
    }),
    // No admin allowlist: only the config's allowHosts opens a private host here.
    testDeps(
      tmp.root,
      { "secret:hook": KEY, "secret:wrong": "not-the-key-at-all" },
      { now: () => 1_700_000_000_000, allowHosts: [] },
    ),
  );

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as AgentError,
  );

describe("webhook executor", () => {
  it("POSTs a signed body the receiver can verify, and validates the reply", async () => {
    respond = (body) => ({
      status: 200,
      body: JSON.stringify({
        output: `echo: ${String(body.input)} <promise>DONE</promise>`,
        usage: { input_tokens: 30, output_tokens: 12 },
        cost: 0.002,
        toolCalls: ["search"],
      }),
    });
    const result = await agent().run(request({ iteration: 4, input: "hello", continuation: "carry on" }));
    const last = received.at(-1)!;
    expect(last.verified).toBe(true);
    expect(last.timestamp).toBe("1700000000");
    expect(last.body).toMatchObject({
      loopId: "loop-1",
      iteration: 4,
      goal: "Make the tests pass",
      input: "hello",
      continuation: "carry on",
      sentAt: 1700000000,
    });
    expect(result.output).toBe("echo: hello <promise>DONE</promise>");
    expect(result.claim).toEqual({ done: true, text: "DONE" });
    expect(result.usage).toEqual({ input: 30, output: 12, cache: 0 });
    expect(result.costUsd).toBe(0.002);
    expect(result.toolCalls).toEqual(["search"]);
  });

  it("is rejected by the receiver when signed with the wrong key (a 4xx, not retried)", async () => {
    const error = await fail(agent({ signingKeySecret: "wrong" }).run(request()));
    expect(received.at(-1)!.verified).toBe(false);
    expect(error.code).toBe("provider_rejected");
    expect(error.retryable).toBe(false);
  });

  it("treats 503 as retryable and an invalid reply as a clear failure", async () => {
    respond = () => ({ status: 503, body: "busy" });
    expect((await fail(agent().run(request()))).retryable).toBe(true);
    respond = () => ({ status: 200, body: JSON.stringify({ answer: "wrong field" }) });
    const error = await fail(agent().run(request()));
    expect(error.code).toBe("bad_reply");
    expect(error.message).toMatch(/output/);
  });

  it("a 429 with retry-after is the webhook's usage limit: the loop waits for it instead of retrying", async () => {
    respond = () => ({ status: 429, body: "slow down", headers: { "retry-after": "90" } });
    const error = await fail(agent().run(request()));
    expect(usageLimitSignalOf(error)).toMatchObject({ retryAfter: "90", message: expect.stringMatching(/HTTP 429/) });
    expect(usageLimitResetAt(usageLimitSignalOf(error)!, 1_000)).toBe(91_000);
  });

  it("does not follow redirects", async () => {
    respond = () => ({ status: 302, body: "" });
    expect((await fail(agent().run(request()))).message).toMatch(/redirects are not followed/);
  });

  it("times out a webhook that never answers", async () => {
    respond = () => null;
    const error = await fail(agent({ timeoutSeconds: 1 }).run(request()));
    expect(error.code).toBe("timeout");
    expect(error.retryable).toBe(true);
  });

  it.each([
    [`http://127.0.0.1:PORT/agent`, "loopback without an allowlist"],
    ["http://10.0.0.1/agent", "private"],
    ["http://169.254.169.254/latest/meta-data", "cloud metadata"],
    ["http://0.0.0.0:PORT/", "unspecified"],
    ["http://[::1]:PORT/", "IPv6 loopback"],
    ["http://[::ffff:127.0.0.1]:PORT/", "IPv4-mapped loopback"],
    ["http://localhost:PORT/agent", "a hostname resolving to loopback"],
  ])("refuses %s (%s) before any request is made", async (url) => {
    const before = received.length;
    const error = await fail(agent({ url: url.replace("PORT", String(port)), allowHosts: [] }).run(request()));
    expect(error.code).toBe("ssrf_refused");
    expect(error.retryable).toBe(false);
    expect(received.length).toBe(before);
  });

  it("allows a private host the allowlist names", async () => {
    respond = () => ({ status: 200, body: JSON.stringify({ output: "local ok" }) });
    const result = await agent({ url: `http://localhost:${port}/agent`, allowHosts: ["localhost"] }).run(request());
    expect(result.output).toBe("local ok");
  });

  it("classifies addresses", () => {
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
    ]) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
    for (const ip of ["93.184.216.34", "172.32.0.1", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]) {
      expect(isBlockedAddress(ip), ip).toBe(false);
    }
  });
});
