import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { PEER_HEADER, readPeerStamp, stampPeer } from "./peer-address";
import { clientIp } from "./client-ip";
import { localRequestProblem } from "./local-request";

/** Headers as a route handler would see them after the server stamped the socket address. */
function stamped(remoteAddress: string, headers: Record<string, string> = {}): Headers {
  const req = {
    headers: { host: "localhost:3000", ...headers },
    socket: { remoteAddress },
  } as unknown as IncomingMessage;
  stampPeer(req);
  return new Headers(req.headers as Record<string, string>);
}

describe("loopback detection for first-run setup", () => {
  it("accepts a direct loopback request with a loopback Host", () => {
    expect(localRequestProblem(stamped("127.0.0.1"))).toBeNull();
    expect(localRequestProblem(stamped("::1", { host: "[::1]:3000" }))).toBeNull();
    expect(localRequestProblem(stamped("::ffff:127.0.0.1", { host: "127.0.0.1:3000" }))).toBeNull();
  });

  it("refuses other peers, whatever the headers claim", () => {
    expect(localRequestProblem(stamped("192.168.1.20", { "x-forwarded-for": "127.0.0.1" }))).toMatch(
      /only available on the machine/,
    );
    expect(localRequestProblem(stamped("10.0.0.5"))).toMatch(/only available on the machine/);
  });

  it("refuses loopback peers that speak for someone else (a proxy) or carry a foreign Host (DNS rebinding)", () => {
    expect(localRequestProblem(stamped("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }))).toMatch(/proxy/);
    expect(localRequestProblem(stamped("127.0.0.1", { forwarded: "for=203.0.113.9" }))).toMatch(/proxy/);
    expect(localRequestProblem(stamped("127.0.0.1", { host: "rebind.evil.example" }))).toMatch(/localhost/);
  });

  it("fails closed without this process's stamp: a client cannot forge it", () => {
    expect(localRequestProblem(new Headers({ host: "localhost", [PEER_HEADER]: "guess;0;127.0.0.1" }))).toMatch(
      /could not verify/,
    );
    expect(localRequestProblem(new Headers({ host: "localhost", "x-forwarded-for": "127.0.0.1" }))).toMatch(
      /could not verify/,
    );
    expect(readPeerStamp(new Headers())).toBeNull();
  });

  it("keys rate limits by the stamped socket address unless a proxy is trusted", () => {
    const headers = stamped("198.51.100.7", { "x-forwarded-for": "1.1.1.1, 203.0.113.5" });
    expect(clientIp(headers, false)).toBe("198.51.100.7");
    expect(clientIp(headers, true)).toBe("203.0.113.5");
    expect(clientIp(new Headers(), false)).toBe("unknown");
  });
});
