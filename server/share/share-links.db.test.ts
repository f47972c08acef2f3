// Share links: the token is shown once and stored as a hash; revoked and
// expired links are 404 on the next request; lookups are rate-limited per IP;
// a shared page shows one loop, redacted.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { callerAs, createUser } from "../../test/auth-fixtures";
import { hashToken } from "../auth/tokens";
import {
  createShareLink,
  listShareLinks,
  resolveShareToken,
  revokeShare,
  SHARE_MISS_LIMIT,
} from "./share-links.service";
import { redactLoopForShare } from "./share-redaction";
import { getLoopDetail } from "../loops/loop-detail.service";

const T0 = Date.UTC(2026, 6, 1);

describeEachProvider("share links", ({ db }) => {
  async function newLoop(config: object = {}) {
    const id = randomUUID();
    await db().prisma.loop.create({ data: { id, goal: "Share me", agentKind: "webhook", config: config as never } });
    return id;
  }
  const create = (loopId: string, expiresAt: Date | null = null) =>
    createShareLink(db(), { loopId, expiresAt, createdById: null, newId: randomUUID });
  const tokenOf = (path: string) => path.slice("/r/".length);

  it("returns the token once, as /r/<token> with 256 bits, and stores only its hash", async () => {
    const loopId = await newLoop();
    const link = await create(loopId);
    expect(link.path).toMatch(/^\/r\/[A-Za-z0-9_-]{43}$/);
    const row = await db().prisma.shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.tokenHash).toBe(hashToken(tokenOf(link.path)));
    expect(JSON.stringify(row)).not.toContain(tokenOf(link.path));
    const listed = await listShareLinks(db(), loopId, T0);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(tokenOf(link.path));
    expect(await resolveShareToken(db(), tokenOf(link.path), "192.0.2.1", T0)).toEqual({ loopId });
  });

  it("a revoked link stops working on the very next request", async () => {
    const loopId = await newLoop();
    const link = await create(loopId);
    expect(await resolveShareToken(db(), tokenOf(link.path), "192.0.2.2", T0)).toEqual({ loopId });
    await revokeShare(db(), link.id, T0 + 1);
    expect(await resolveShareToken(db(), tokenOf(link.path), "192.0.2.2", T0 + 2)).toBeNull();
    expect((await listShareLinks(db(), loopId, T0 + 3))[0]!.state).toBe("revoked");
  });

  it("an expired link is gone; one without expiry stays", async () => {
    const loopId = await newLoop();
    const expiring = await create(loopId, new Date(T0 + 60_000));
    const forever = await create(loopId);
    expect(await resolveShareToken(db(), tokenOf(expiring.path), "192.0.2.3", T0 + 59_999)).toEqual({ loopId });
    expect(await resolveShareToken(db(), tokenOf(expiring.path), "192.0.2.3", T0 + 60_000)).toBeNull();
    expect(await resolveShareToken(db(), tokenOf(forever.path), "192.0.2.3", T0 + 365 * 86_400_000)).toEqual({
      loopId,
    });
  });

  it("rate-limits failed lookups per IP, with a message; a valid link from the same address (a shared proxy) still opens", async () => {
    const loopId = await newLoop();
    const link = await create(loopId);
    const ip = "192.0.2.66";
    for (let i = 0; i < SHARE_MISS_LIMIT.max; i++)
      expect(await resolveShareToken(db(), `guess${i}`.padEnd(43, "x"), ip, T0 + i)).toBeNull();
    await expect(resolveShareToken(db(), "one-more-guess".padEnd(43, "x"), ip, T0 + 100)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringMatching(/Too many invalid share links/),
    });
    expect(await resolveShareToken(db(), tokenOf(link.path), ip, T0 + 100)).toEqual({ loopId });
    expect(await resolveShareToken(db(), tokenOf(link.path), "192.0.2.67", T0 + 100)).toEqual({ loopId });
    expect(
      await resolveShareToken(db(), "late-guess".padEnd(43, "x"), ip, T0 + SHARE_MISS_LIMIT.windowMs + 100),
    ).toBeNull();
  });

  it("over tRPC: unknown, revoked and expired tokens are NOT_FOUND; too many are TOO_MANY_REQUESTS", async () => {
    const loopId = await newLoop();
    const operator = callerAs(db(), (await createUser(db(), "operator")).actor);
    const link = await operator.share.create({ loopId, expiresInHours: 1 });
    const anonymous = callerAs(db(), null);
    const token = tokenOf(link.path);
    expect((await anonymous.share.view({ token })).loop.id).toBe(loopId);
    await operator.share.revoke({ id: link.id });
    await expect(anonymous.share.view({ token })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(anonymous.share.iterations({ token })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // The in-process caller has no client address: it shares the "unknown" bucket, which these misses fill.
    for (let i = 0; i < SHARE_MISS_LIMIT.max; i++)
      await anonymous.share.view({ token: `nope${i}` }).catch(() => undefined);
    await expect(anonymous.share.view({ token })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });

  it("the shared view is one loop, read-only, with secret references, workspace and people removed", async () => {
    const loopId = await newLoop({
      workspace: "/home/ops/private-repo",
      agent: {
        kind: "webhook",
        url: "https://agent.example/run",
        signingKeySecret: "WEBHOOK_KEY",
        headers: { Authorization: "Bearer live-token-123456" },
      },
      scorers: [],
    });
    await db().prisma.controlRequest.create({
      data: {
        id: randomUUID(),
        loopId,
        kind: "interrupt",
        actor: "alice@corp.example",
        actorId: null,
        reason: "internal note",
      },
    });
    const shared = redactLoopForShare(await getLoopDetail(db(), loopId, T0));
    const text = JSON.stringify(shared);
    for (const hidden of [
      "WEBHOOK_KEY",
      "live-token-123456",
      "/home/ops/private-repo",
      "alice@corp.example",
      "internal note",
      "leaseOwner",
      "createdById",
    ]) {
      expect(text).not.toContain(hidden);
    }
    expect(shared.loop).toMatchObject({ id: loopId, goal: "Share me" });
    expect(shared.loop.definition.agent).toMatchObject({
      url: "https://agent.example/run",
      signingKeySecret: "[redacted]",
    });
    expect(shared.pendingControls).toEqual([expect.objectContaining({ kind: "interrupt", actor: "an operator" })]);
  });
});
