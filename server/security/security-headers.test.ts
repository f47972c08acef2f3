import { describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { pageCsp } from "./security-headers";

describe("page Content-Security-Policy", () => {
  it("allows only this origin and nonce'd scripts, and no framing", () => {
    const csp = pageCsp("abc123", { dev: false });
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(pageCsp("n", { dev: true })).toContain("'unsafe-eval'");
  });
});

describe("auth configuration", () => {
  it("has sane session and sign-in defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      RALPH_SESSION_IDLE_MINUTES: 480,
      RALPH_SESSION_MAX_HOURS: 168,
      RALPH_SIGNIN_MAX_FAILURES: 5,
      RALPH_TRUST_PROXY: false,
    });
  });

  it("needs RALPH_ADMIN_EMAIL and RALPH_ADMIN_PASSWORD together, a real email and a long password", () => {
    expect(() => parseEnv({ RALPH_ADMIN_EMAIL: "a@b.co" })).toThrow(/RALPH_ADMIN_PASSWORD: .*set together/);
    expect(() => parseEnv({ RALPH_ADMIN_PASSWORD: "long-enough-pass" })).toThrow(/RALPH_ADMIN_EMAIL/);
    expect(() => parseEnv({ RALPH_ADMIN_EMAIL: "nope", RALPH_ADMIN_PASSWORD: "long-enough-pass" })).toThrow(
      /RALPH_ADMIN_EMAIL: must be an email/,
    );
    expect(() => parseEnv({ RALPH_ADMIN_EMAIL: "a@b.co", RALPH_ADMIN_PASSWORD: "short" })).toThrow(/at least 12/);
    expect(parseEnv({ RALPH_ADMIN_EMAIL: "a@b.co", RALPH_ADMIN_PASSWORD: "long-enough-pass" }).RALPH_ADMIN_EMAIL).toBe(
      "a@b.co",
    );
  });

  it("takes RALPH_SECRET_KEY only as base64 of 32 bytes", () => {
    expect(() => parseEnv({ RALPH_SECRET_KEY: "too-short" })).toThrow(
      /RALPH_SECRET_KEY: must be base64 of exactly 32 bytes/,
    );
    expect(parseEnv({ RALPH_SECRET_KEY: Buffer.alloc(32, 7).toString("base64") }).RALPH_SECRET_KEY).toBeTruthy();
  });
});
