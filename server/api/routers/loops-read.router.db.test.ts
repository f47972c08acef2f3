// The dashboard's read procedures: templates, clone source, detail and list
// extras, and the share preview, never leaking a secret value or reference.
import { afterAll, expect, it, vi } from "vitest";
import { describeEachProvider } from "../../../test/db-providers";
import { createHarness, improvingAgent, waitFor, type Harness } from "../../../test/runtime-harness";
import { createContext } from "../context";
import { createCaller } from "../root";

const SECRET_VALUE = "sk-live-0123456789abcdef";
const SECRET_ENV = "PROD_ONLY_KEY";
// Agents may take a server variable only when an admin lists it.
vi.stubEnv("RALPH_AGENT_ENV_ALLOW", SECRET_ENV);
// The preflight refuses to start a loop whose secret is missing.
vi.stubEnv(SECRET_ENV, "a-value-the-preflight-finds");

describeEachProvider("loops read procedures", ({ db }) => {
  let harness: Harness | undefined;
  const caller = () => {
    harness ??= createHarness(db(), { command: improvingAgent(3) });
    return createCaller(createContext({ services: harness.services }));
  };
  afterAll(() => harness?.stop());

  async function finishedLoop() {
    const { id } = await caller().loops.create({
      name: "Secretive",
      goal: "Fix the build",
      agent: {
        kind: "command",
        argv: ["./agent.sh"],
        env: { TOKEN: SECRET_VALUE },
        secrets: [{ name: "API_KEY", env: SECRET_ENV }],
      },
      // The harness scores every output; the definition itself names no scorer.
      loop: {
        stop: { maxIterations: 5, scoreThreshold: 1 },
        completion: { evidence: ["score"], allowNoEvidence: true },
      },
      start: true,
    });
    await waitFor(
      () => caller().loops.byId({ id }),
      (d) => d.loop.status === "completed",
    );
    return id;
  }

  it("offers the four templates", async () => {
    expect((await caller().loops.templates()).map((t) => t.id)).toEqual([
      "demo",
      "claude-code-tests",
      "codex-tests",
      "llm-judge",
    ]);
  });

  it("clone source, detail and share preview carry no secret, and say what was blanked", async () => {
    const id = await finishedLoop();
    const clone = await caller().loops.definition({ id });
    expect(clone.definition).toMatchObject({
      goal: "Fix the build",
      name: "Secretive (copy)",
      agent: { kind: "command", argv: ["./agent.sh"] },
    });
    expect(clone.redactedPaths.sort()).toEqual(["agent.env.TOKEN", "agent.secrets.0.env"]);

    const detail = await caller().loops.byId({ id });
    const preview = await caller().loops.sharePreview({ id });
    for (const out of [clone, detail, preview]) {
      const text = JSON.stringify(out);
      expect(text).not.toContain(SECRET_VALUE);
      expect(text).not.toContain(SECRET_ENV);
    }
    expect(detail.series).toHaveLength(3);
    expect(detail.markers.some((m) => m.type === "halted")).toBe(true);
    expect(detail.now).toBeInstanceOf(Date);
    // No git workspace (nothing snapshotted): the server offers no roll back and no worktree removal (issue 31).
    const none = { allowed: false, reason: "this loop has no git workspace (nothing was snapshotted)" };
    expect(detail.workspaceActions).toEqual({ rollback: none, removeWorktree: none });
  });

  it("answers a window of the chart series at full resolution, and refuses a reversed one", async () => {
    const id = await finishedLoop();
    const whole = await caller().loops.byId({ id });
    const window = await caller().loops.series({ id, from: 2, to: 3 });
    expect(window).toMatchObject({ from: 2, to: 3, bucketSize: 1 });
    expect(window.points.map((p) => p.number)).toEqual([2, 3]);
    expect(window.points).toEqual(whole.series.filter((p) => p.number >= 2 && p.number <= 3));
    await expect(caller().loops.series({ id, from: 3, to: 2 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller().loops.series({ id: "no-such-loop", from: 1, to: 2 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("answers the loop's public fields only, with availability decided on the server", async () => {
    const id = await finishedLoop();
    // The row does carry the runtime's bookkeeping; the output contract strips it.
    const row = await harness!.services.db.prisma.loop.findUniqueOrThrow({ where: { id } });
    expect(row).toHaveProperty("version");
    // An agent's process group is the runtime's; the spend it reported is the operator's.
    const spend = { input: 10, output: 2, cache: 0, costUsd: 0.25 };
    const group = { pgid: 4242, host: "h", bootId: null, startTicks: null, marker: "m" };
    await harness!.services.db.prisma.loop.update({ where: { id }, data: { inflightAgent: { group, spend } } });
    const detail = await caller().loops.byId({ id });
    for (const internal of ["leaseOwner", "leaseExpiresAt", "version", "checkpointId", "createdById"]) {
      expect(detail.loop).not.toHaveProperty(internal);
    }
    expect(detail.loop.inflightAgent).toEqual({ spend });
    expect(detail.loop).toMatchObject({ id, status: "completed", displayStatus: "completed", isTerminal: true });
    expect(detail.availability.kill).toEqual({ allowed: false, reason: "the loop has ended (completed)" });
    expect(detail.availability.fork.allowed).toBe(true);
    expect(detail.availability.share.allowed).toBe(true);

    const viewer = { id: "user-viewer", email: "viewer@read.test", name: "viewer", role: "viewer" as const };
    const asViewer = createCaller(createContext({ services: harness!.services, actor: viewer }));
    const seen = await asViewer.loops.byId({ id });
    expect(Object.values(seen.availability).every((a) => !a.allowed)).toBe(true);
    expect(seen.availability.fork.reason).toBe("your role can only view loops");
    expect((await asViewer.auth.me())?.permissions).toEqual({ operateLoops: false, administer: false });
  });

  it("lists each loop with its recent iterations for the sparkline and alarms", async () => {
    const page = await caller().loops.list({ text: "Fix the build" });
    const row = page.items[0]!;
    expect(row.recent.map((r) => r.number)).toEqual([1, 2, 3]);
    expect(row.recent.at(-1)!.meanScore).toBe(1);
    expect(row).toHaveProperty("lastHeartbeatAt");
    expect(row).toHaveProperty("inflightStartedAt");
  });

  it("answers NOT_FOUND for an unknown loop's definition", async () => {
    await expect(caller().loops.definition({ id: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
