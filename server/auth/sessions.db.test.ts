// Sign-in, sign-out, inactivity and absolute expiry (with an injected clock),
// password change, disabling, and the brute-force limits.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { createUser, uniqueEmail, TEST_PASSWORD } from "../../test/auth-fixtures";
import { DomainError } from "../errors";
import { endSession, resolveSession, type SessionPolicy } from "./sessions.service";
import { BAD_CREDENTIALS, signIn, type SignInLimits } from "./sign-in.service";
import { changeOwnPassword, updateAccount } from "./users.service";
import { LOCAL_OPERATOR } from "./actor";

const policy: SessionPolicy = { idleMs: 30 * 60_000, absoluteMs: 8 * 3_600_000 };
const limits: SignInLimits = {
  account: { bucket: "signin-account", max: 3, windowMs: 15 * 60_000 },
  ip: { bucket: "signin-ip", max: 5, windowMs: 15 * 60_000 },
};
const T0 = Date.UTC(2026, 5, 1, 9, 0, 0);

describeEachProvider("sessions and sign-in", ({ db }) => {
  const attempt = (email: string, password: string, now: number, ip = "198.51.100.1") =>
    signIn(db(), { email, password, ip, now, newId: randomUUID, limits, policy });
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e as DomainError,
    );

  it("signs in with the right password: a 256-bit token, only its hash stored", async () => {
    const user = await createUser(db(), "operator");
    const session = await attempt(user.email.toUpperCase(), TEST_PASSWORD, T0);
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await db().prisma.session.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(session.token);
    const resolved = await resolveSession(db(), session.token, T0 + 1000, policy);
    expect(resolved?.actor).toEqual({ id: user.id, email: user.email, name: user.name, role: "operator" });
  });

  it("refuses a wrong password or unknown email with the same message", async () => {
    const user = await createUser(db(), "viewer");
    expect((await failure(attempt(user.email, "wrong-password-123", T0)))?.message).toBe(BAD_CREDENTIALS);
    expect((await failure(attempt(uniqueEmail("nobody"), "wrong-password-123", T0, "198.51.100.99")))?.message).toBe(
      BAD_CREDENTIALS,
    );
  });

  it("signing out revokes the session on the server", async () => {
    const user = await createUser(db(), "viewer");
    const session = await attempt(user.email, TEST_PASSWORD, T0);
    await endSession(db(), session.id, T0 + 1000);
    expect(await resolveSession(db(), session.token, T0 + 2000, policy)).toBeNull();
  });

  it("ends a session after the inactivity timeout; activity keeps it alive", async () => {
    const user = await createUser(db(), "viewer");
    const session = await attempt(user.email, TEST_PASSWORD, T0);
    // Active every 20 minutes for two hours: still signed in.
    for (let t = T0 + 20 * 60_000; t <= T0 + 120 * 60_000; t += 20 * 60_000) {
      expect(await resolveSession(db(), session.token, t, policy)).not.toBeNull();
    }
    // Then 30 minutes of silence.
    expect(await resolveSession(db(), session.token, T0 + 150 * 60_000, policy)).toBeNull();
    expect((await db().prisma.session.findUniqueOrThrow({ where: { id: session.id } })).revokedAt).not.toBeNull();
  });

  it("ends a session at the absolute timeout even while active", async () => {
    const user = await createUser(db(), "viewer");
    const session = await attempt(user.email, TEST_PASSWORD, T0);
    let t = T0;
    while (t < T0 + policy.absoluteMs - 20 * 60_000) {
      t += 20 * 60_000;
      expect(await resolveSession(db(), session.token, t, policy)).not.toBeNull();
    }
    expect(await resolveSession(db(), session.token, T0 + policy.absoluteMs, policy)).toBeNull();
  });

  it("changing the password ends the other sessions and keeps this one", async () => {
    const user = await createUser(db(), "operator");
    const here = await attempt(user.email, TEST_PASSWORD, T0);
    const elsewhere = await attempt(user.email, TEST_PASSWORD, T0);
    const wrong = await failure(
      changeOwnPassword(db(), {
        userId: user.id,
        email: user.email,
        sessionId: here.id,
        current: "not-the-password",
        next: "a-new-password-456",
        now: T0,
      }),
    );
    expect(wrong).toMatchObject({ code: "INVALID_INPUT", message: "The current password is incorrect" });
    const result = await changeOwnPassword(db(), {
      userId: user.id,
      email: user.email,
      sessionId: here.id,
      current: TEST_PASSWORD,
      next: "a-new-password-456",
      now: T0 + 1000,
    });
    expect(result.endedSessions).toBe(1);
    expect(await resolveSession(db(), here.token, T0 + 2000, policy)).not.toBeNull();
    expect(await resolveSession(db(), elsewhere.token, T0 + 2000, policy)).toBeNull();
    expect(await failure(attempt(user.email, TEST_PASSWORD, T0 + 3000))).toMatchObject({ message: BAD_CREDENTIALS });
    expect((await attempt(user.email, "a-new-password-456", T0 + 4000)).token).toBeTruthy();
  });

  it("a disabled account loses its sessions and cannot sign in", async () => {
    const user = await createUser(db(), "operator");
    const session = await attempt(user.email, TEST_PASSWORD, T0);
    await updateAccount(db(), LOCAL_OPERATOR, user.id, { disabled: true }, T0 + 1000);
    expect(await resolveSession(db(), session.token, T0 + 2000, policy)).toBeNull();
    expect((await failure(attempt(user.email, TEST_PASSWORD, T0 + 3000)))?.message).toMatch(/disabled/);
  });

  it("rejects malformed and unknown tokens without a lookup error", async () => {
    expect(await resolveSession(db(), "not a token", T0, policy)).toBeNull();
    expect(await resolveSession(db(), "A".repeat(43), T0, policy)).toBeNull();
    expect(await resolveSession(db(), null, T0, policy)).toBeNull();
  });

  describe("brute-force limits", () => {
    it("locks an account after repeated failures, even for the right password, with a clear message; the window passes", async () => {
      const user = await createUser(db(), "admin");
      for (let i = 0; i < limits.account.max; i++) {
        expect((await failure(attempt(user.email, `guess-number-${i}`, T0 + i * 1000, `203.0.113.${i}`)))?.code).toBe(
          "UNAUTHENTICATED",
        );
      }
      const locked = await failure(attempt(user.email, TEST_PASSWORD, T0 + 10_000, "203.0.113.200"));
      expect(locked).toMatchObject({ code: "RATE_LIMITED" });
      expect(locked?.message).toMatch(/^Too many failed sign-ins for this account\. Try again in 15 minutes\.$/);
      expect(locked?.details?.retryAfterSeconds).toBeGreaterThan(800);
      // 15 minutes after the first failure the oldest one leaves the window.
      expect((await attempt(user.email, TEST_PASSWORD, T0 + 15 * 60_000 + 1)).token).toBeTruthy();
    });

    it("limits one address across many accounts", async () => {
      const ip = "192.0.2.77";
      for (let i = 0; i < limits.ip.max; i++)
        await failure(attempt(uniqueEmail("spray"), "password-spray-1", T0 + i, ip));
      const user = await createUser(db(), "viewer");
      const limited = await failure(attempt(user.email, TEST_PASSWORD, T0 + 100, ip));
      expect(limited).toMatchObject({ code: "RATE_LIMITED" });
      expect(limited?.message).toMatch(/from your address/);
      // Another address is unaffected.
      expect((await attempt(user.email, TEST_PASSWORD, T0 + 100, "192.0.2.78")).token).toBeTruthy();
    });

    it("25 concurrent guesses: at most the limit are checked, per account and per address (issue 32)", async () => {
      const user = await createUser(db(), "admin");
      const guesses = Array.from({ length: 25 }, (_, i) =>
        failure(attempt(user.email, i === 24 ? TEST_PASSWORD : `concurrent-guess-${i}`, T0 + 1, "198.51.100.50")),
      );
      const outcomes = await Promise.all(guesses);
      const checked = outcomes.filter((e) => e === null || e.code === "UNAUTHENTICATED").length;
      expect(checked).toBeLessThanOrEqual(limits.account.max);
      expect(outcomes.filter((e) => e?.code === "RATE_LIMITED").length).toBeGreaterThanOrEqual(25 - limits.account.max);
      // One address against many accounts at once.
      const spray = await Promise.all(
        Array.from({ length: 25 }, () =>
          failure(attempt(uniqueEmail("burst"), "password-spray-2", T0 + 2, "198.51.100.51")),
        ),
      );
      expect(spray.filter((e) => e?.code === "UNAUTHENTICATED").length).toBeLessThanOrEqual(limits.ip.max);
    });

    it("a successful sign-in forgets the account's earlier typos", async () => {
      const user = await createUser(db(), "viewer");
      for (let i = 0; i < limits.account.max - 1; i++)
        await failure(attempt(user.email, "typo-typo-typo", T0 + i, "192.0.2.90"));
      await attempt(user.email, TEST_PASSWORD, T0 + 10, "192.0.2.90");
      for (let i = 0; i < limits.account.max - 1; i++)
        await failure(attempt(user.email, "typo-typo-typo", T0 + 20 + i, "192.0.2.91"));
      expect((await attempt(user.email, TEST_PASSWORD, T0 + 30, "192.0.2.91")).token).toBeTruthy();
    });
  });
});
