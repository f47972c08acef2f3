// Permission prompts through the router (createCaller), on SQLite and PostgreSQL, with the gate the
// agent's permission server asks: viewers read, only operators answer; the waiting call gets the
// operator's decision; an answer after the deadline is refused and the default applies; a prompt of a
// loop killed meanwhile is denied; an agent without the hook is said to have none.
import { expect, it } from "vitest";
import { describeEachProvider } from "../../../test/db-providers";
import { callerAs } from "../../../test/auth-fixtures";
import { asOperator } from "../../../test/runtime-harness";
import type { Actor } from "../../auth/actor";
import type { Database } from "../../db/client";
import { createPermissionRequest } from "../../db/permission-requests.repo";
import { systemDeps } from "../../jobs/system-deps";
import { createLoop } from "../../loops/loop-create.service";
import { permissionGate } from "../../loops/permission-prompts.service";
import { permissionPolicySchema } from "../../agents/permission-policy.schema";
import type { PermissionAsk } from "../../agents/permission-server";

const actor = (role: Actor["role"]): Actor => ({ id: null, email: `${role}@perm.test`, name: role, role });
const policy = permissionPolicySchema.parse({ commandPatterns: ["^rm "], risk: "high", deadlineSeconds: 60 });

async function runningLoop(db: Database, agent: Record<string, unknown>) {
  const services = { db, dispatcher: { dispatch: () => undefined, dispatchAt: () => undefined }, engine: systemDeps };
  const { id } = await createLoop(
    services,
    { goal: "g", agentKind: "command", definition: { agent, scorers: [] }, engineConfig: {}, start: false },
    asOperator(),
  );
  // As the runtime leaves a loop whose agent is mid-call.
  await db.prisma.loop.update({ where: { id }, data: { status: "running" } });
  return id;
}

const claude = { kind: "command", preset: "claude-code", permissions: policy };
const ask = (loopId: string): PermissionAsk => ({
  loopId,
  iteration: 1,
  attempt: 1,
  toolName: "Bash",
  toolUseId: "toolu_1",
  input: { command: "rm -rf build" },
  summary: "rm -rf build",
  reason: "command matches /^rm /",
  policy,
});

describeEachProvider("permissions router", ({ db }) => {
  it("viewers read a pending prompt; only an operator answers it, once; the waiting call gets the answer", async () => {
    const loopId = await runningLoop(db(), claude);
    const waiting = permissionGate({ db: db(), engine: systemDeps }).ask(ask(loopId), new AbortController().signal);
    const viewer = callerAs(db(), actor("viewer"));
    const operator = callerAs(db(), actor("operator"));
    const view = await expect
      .poll(async () => (await viewer.permissions.ofLoop({ loopId })).prompts, { timeout: 10_000 })
      .toHaveLength(1)
      .then(() => viewer.permissions.ofLoop({ loopId }));
    expect(view).toMatchObject({ available: true, note: null, policy: { risk: "high", defaultAction: "deny" } });
    const [prompt] = view.prompts;
    expect(prompt).toMatchObject({ status: "pending", summary: "rm -rf build", risk: "high", defaultAction: "deny" });
    expect(prompt!.deadlineAt.getTime() - prompt!.requestedAt.getTime()).toBe(60_000);

    await expect(viewer.permissions.answer({ id: prompt!.id, decision: "allow" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const answered = await operator.permissions.answer({ id: prompt!.id, decision: "deny", message: "no" });
    expect(answered).toMatchObject({ status: "denied", decidedBy: "operator@perm.test", byDefault: false });
    expect(await waiting).toEqual({ behavior: "deny", message: "Permission denied by operator@perm.test: no" });
    await expect(operator.permissions.answer({ id: prompt!.id, decision: "allow" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("already denied by operator@perm.test"),
    });
    const audit = await db().prisma.loopEvent.findMany({
      where: { loopId, type: { startsWith: "permission_" } },
      orderBy: { id: "asc" },
    });
    expect(audit.map((e) => [e.type, e.actor])).toEqual([
      ["permission_requested", "agent"],
      ["permission_decided", "operator@perm.test"],
    ]);
  });

  it("an answer after the deadline is refused, and the default is what the agent gets", async () => {
    const loopId = await runningLoop(db(), claude);
    // The asking process's clock is an hour behind: its deadline has long passed for everyone else.
    const behind = { ...systemDeps, now: () => Date.now() - 3_600_000 };
    const waiting = permissionGate({ db: db(), engine: behind }).ask(ask(loopId), new AbortController().signal);
    const operator = callerAs(db(), actor("operator"));
    const prompt = await expect
      .poll(async () => (await db().prisma.permissionRequest.findFirst({ where: { loopId } }))?.id, { timeout: 10_000 })
      .toBeDefined()
      .then(() => db().prisma.permissionRequest.findFirstOrThrow({ where: { loopId } }));
    await expect(operator.permissions.answer({ id: prompt.id, decision: "allow" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/^Too late: the deadline passed at .* and the default \(deny\) was applied$/),
    });
    expect((await waiting).behavior).toBe("deny");
    const decided = await db().prisma.loopEvent.findFirstOrThrow({ where: { loopId, type: "permission_decided" } });
    expect(decided).toMatchObject({ actor: "deadline" });
    expect(decided.payload).toMatchObject({ byDefault: true, decision: "denied" });
  });

  it("a prompt of a loop killed meanwhile is denied, and the waiting call says why", async () => {
    const loopId = await runningLoop(db(), claude);
    const waiting = permissionGate({ db: db(), engine: systemDeps }).ask(ask(loopId), new AbortController().signal);
    await expect.poll(() => db().prisma.permissionRequest.count({ where: { loopId } }), { timeout: 10_000 }).toBe(1);
    await db().prisma.loop.update({ where: { id: loopId }, data: { status: "cancelled" } });
    expect(await waiting).toEqual({ behavior: "deny", message: "Permission denied by system: the loop is cancelled" });
    const [prompt] = (await callerAs(db(), actor("viewer")).permissions.ofLoop({ loopId })).prompts;
    expect(prompt).toMatchObject({ status: "denied", decidedBy: "system" });
  });

  it("the agent's attempt ending (its process gone) denies its open prompt", async () => {
    const loopId = await runningLoop(db(), claude);
    const gone = new AbortController();
    const waiting = permissionGate({ db: db(), engine: systemDeps }).ask(ask(loopId), gone.signal);
    await expect.poll(() => db().prisma.permissionRequest.count({ where: { loopId } }), { timeout: 10_000 }).toBe(1);
    gone.abort();
    expect((await waiting).message).toContain("the agent's attempt ended before an answer");
  });

  it("a prompt whose waiting process died (a restart) gets its deadline's default when read", async () => {
    const loopId = await runningLoop(db(), claude);
    const past = new Date(Date.now() - 1000);
    await createPermissionRequest(
      db().prisma,
      {
        ...{ id: `p-${loopId}`, loopId, iteration: 1, attempt: 1, toolName: "Bash", toolUseId: null },
        ...{ input: "{}", summary: "rm -rf build", reason: "r", risk: "low", defaultAction: "allow" },
        requestedAt: new Date(past.getTime() - 60_000),
        deadlineAt: past,
      },
      { loopId, type: "permission_requested", actor: "agent" },
    );
    const [prompt] = (await callerAs(db(), actor("viewer")).permissions.ofLoop({ loopId })).prompts;
    expect(prompt).toMatchObject({ status: "allowed", decidedBy: "deadline", byDefault: true });
  });

  it("an agent without the hook: the page is told prompts are not available", async () => {
    const loopId = await runningLoop(db(), { kind: "command", preset: "codex" });
    expect(await callerAs(db(), actor("viewer")).permissions.ofLoop({ loopId })).toMatchObject({
      available: false,
      note: expect.stringContaining("not available for the codex command agent"),
      prompts: [],
    });
  });
});
