// Usage limits end to end (issue 18): a real fake Claude Code CLI on a
// limited account, the real command executor, runtime and storage. The fake
// logs every call it gets, so "no call before the reset" is checked on what
// the provider saw.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, waitFor } from "../../test/runtime-harness";
import { fixture, tempRoot } from "../agents/fixtures/harness";
import { createLoop } from "../loops/loop-create.service";
import { requestControl } from "../loops/loop-controls.service";
import { usageLimitOverview } from "../loops/usage-limits.service";
import { clearLimitWindow } from "../loops/usage-limit-clear.service";
import { startSweeper, type Sweeper } from "./sweeper";
import { startDefinitionRuntime } from "../../test/definition-runtime";

const tmp = tempRoot("ralph-limits-");
afterAll(() => tmp.cleanup());

type Runtime = ReturnType<typeof startDefinitionRuntime>;

let stateSeq = 0;
const newStateDir = () => join(tmp.root, `account-${process.pid}-${++stateSeq}`);

/** The fake Claude Code, sharing `stateDir` as one provider account (`account`: the stored secret's id). */
function fakeClaude(stateDir: string, args: string[], account: string | null = `account-${stateSeq}`) {
  return {
    kind: "command",
    preset: "claude-code",
    argv: [process.execPath, fixture("claude-limited.mjs"), stateDir, ...args],
    timeoutSeconds: 60,
    ...(account ? { secrets: [{ name: "ANTHROPIC_API_KEY", secret: account }] } : {}),
  };
}

const engineConfig = (extra: Record<string, unknown> = {}) => ({
  stop: { maxIterations: 8, scoreThreshold: 1, noProgressIterations: 0 },
  retry: { maxAttempts: 3, strategy: "none" },
  // Any counted agent error would open the breaker at once.
  health: { checkInterval: 0, breaker: { failureThreshold: 1 } },
  limits: { marginSeconds: 0, backoffSeconds: 1 },
  ...extra,
});

function calls(stateDir: string) {
  return readFileSync(join(stateDir, "calls.log"), "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const [at, loopId, outcome] = line.split(" ");
      return { at: Number(at), loopId: loopId!, outcome: outcome! };
    });
}

const resetAt = (stateDir: string) =>
  (JSON.parse(readFileSync(join(stateDir, "state.json"), "utf8")) as { resetAt: number }).resetAt;

describeEachProvider("usage limits", ({ db }) => {
  const runtimes: Runtime[] = [];
  const sweepers: Sweeper[] = [];
  afterEach(async () => {
    for (const s of sweepers.splice(0)) s.stop();
    for (const r of runtimes.splice(0)) await r.dispatcher.stop();
  });
  const runtime = (id = "rt") => {
    const r = startDefinitionRuntime(db(), { root: tmp.root, instanceId: id, secret: "sk-test-account" });
    runtimes.push(r);
    return r;
  };

  async function newLoop(r: Runtime, definition: Record<string, unknown>, config = engineConfig()) {
    const agent = definition.agent as { kind: string };
    const input = {
      goal: "finish the work",
      agentKind: agent.kind,
      definition: { scorers: [{ kind: "keyword", keywords: ["DONE"] }], ...definition },
      engineConfig: config,
      start: true,
    };
    return (await createLoop(r.services, input, asOperator())).id;
  }

  const loopRow = (id: string) => db().prisma.loop.findUniqueOrThrow({ where: { id } });
  const events = (id: string, type: string) =>
    db().prisma.loopEvent.findMany({ where: { loopId: id, type }, orderBy: { id: "asc" } });
  const iterations = (id: string) =>
    db().prisma.iteration.findMany({ where: { loopId: id }, orderBy: { number: "asc" } });
  const until = (id: string, done: (l: { status: string }) => boolean, ms = 60_000) =>
    waitFor(() => loopRow(id), done, ms);

  it("waits for the reset on calls 2 and 3, resumes and completes: 0 failures, 1 waiting period, breaker closed", async () => {
    const r = runtime();
    const state = newStateDir();
    const id = await newLoop(r, { agent: fakeClaude(state, ["--limit-calls", "2,3", "--done-at", "4"]) });
    const limited = await until(id, (l) => l.status === "waiting_for_limit");
    expect(limited.nextRunAt!.getTime()).toBeGreaterThan(Date.now() - 5_000);
    const done = await until(id, (l) => l.status === "completed");
    expect(done.stopType).toBe("score_threshold");

    const rows = await iterations(id);
    expect(rows.map((i) => i.status)).toEqual(["succeeded", "rate_limited", "rate_limited", "succeeded"]);
    expect(rows.filter((i) => i.status === "failed" || i.status === "error")).toEqual([]);
    const log = calls(state);
    expect(log.map((c) => c.outcome)).toEqual(["ok", "limited", "limited", "ok"]);
    // Every call after a limit came once its reset had passed: no attempt was burnt to find out.
    expect(log[2]!.at).toBeGreaterThanOrEqual(Math.ceil((log[1]!.at + 2000) / 1000) * 1000);
    const waits = await events(id, "limit_wait_started");
    expect(waits.map((e) => (e.payload as { newPeriod: boolean }).newPeriod)).toEqual([true, false]);
    expect(await events(id, "breaker_changed")).toEqual([]);
    expect(await events(id, "limit_wait_ended")).toHaveLength(2);
  });

  it("three loops on one account: after the first hits the limit, the others make no call until the reset", async () => {
    const r = runtime();
    const state = newStateDir();
    const agent = fakeClaude(state, ["--limit-calls", "2", "--done-at", "3", "--reset-ms", "8000"]);
    const first = await newLoop(r, { agent });
    await until(first, (l) => l.status === "waiting_for_limit");
    const reset = resetAt(state);
    const others = [await newLoop(r, { agent }), await newLoop(r, { agent })];
    for (const id of others) {
      const row = await until(id, (l) => l.status === "waiting_for_limit" || l.status === "completed");
      expect(row.status).toBe("waiting_for_limit");
    }
    // Settings shows the account's window with the loops waiting on it.
    const overview = await usageLimitOverview(db(), new Date());
    const window = overview.windows.find((w) => w.account.startsWith("secret:"));
    expect(window?.learnedBy).toBe(first);
    expect(window?.loops.map((l) => l.id).sort()).toEqual([first, ...others].sort());
    for (const id of [first, ...others]) await until(id, (l) => l.status === "completed");

    const log = calls(state);
    for (const id of others) {
      const theirs = log.filter((c) => c.loopId === id);
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.every((c) => c.at >= reset && c.outcome === "ok")).toBe(true);
      expect((await iterations(id)).map((i) => i.status)).not.toContain("rate_limited");
      const joined = await events(id, "limit_wait_started");
      expect(joined.map((e) => (e.payload as { shared: boolean }).shared)).toEqual([true]);
    }
    expect(log.filter((c) => c.outcome === "limited")).toHaveLength(1);
  });

  it('an agent that read a file saying "You\'ve hit your limit" and finished normally is not limited', async () => {
    const r = runtime();
    const state = newStateDir();
    const id = await newLoop(r, { agent: fakeClaude(state, ["--reader", "--done-at", "1"], null) });
    const done = await until(id, (l) => l.status === "completed" || l.status === "waiting_for_limit");
    expect(done.status).toBe("completed");
    expect((await iterations(id)).map((i) => i.status)).toEqual(["succeeded"]);
    expect(await events(id, "limit_wait_started")).toEqual([]);
  });

  it("fallback: the fallback agent runs while the limit holds; the timeline says which agent ran each iteration", async () => {
    const r = runtime();
    const state = newStateDir();
    const fallbackState = newStateDir();
    const id = await newLoop(
      r,
      {
        agent: fakeClaude(state, ["--limit-calls", "1", "--reset-ms", "30000"]),
        fallbackAgent: fakeClaude(fallbackState, ["--done-at", "2"], "fallback-account"),
      },
      engineConfig({ limits: { onUsageLimit: "fallback", marginSeconds: 0 } }),
    );
    await until(id, (l) => l.status === "completed");
    const rows = await iterations(id);
    expect(rows.map((i) => `${i.status}:${i.agent}`)).toEqual([
      "rate_limited:primary",
      "succeeded:fallback",
      "succeeded:fallback",
    ]);
    expect(calls(state)).toHaveLength(1);
    expect(await events(id, "limit_fallback")).toHaveLength(1);
  });

  it("a loop waiting for a limit survives a restart of the app and resumes at the reset", async () => {
    const first = runtime("before-restart");
    const state = newStateDir();
    const id = await newLoop(first, {
      agent: fakeClaude(state, ["--limit-calls", "1", "--done-at", "2", "--reset-ms", "3000"]),
    });
    await until(id, (l) => l.status === "waiting_for_limit");
    await first.dispatcher.stop();
    const reset = resetAt(state);

    // A new process on the same database: only its sweeper knows about the loop.
    const second = runtime("after-restart");
    sweepers.push(startSweeper(db(), second.dispatcher, 200));
    const row = await loopRow(id);
    expect(row.status).toBe("waiting_for_limit");
    expect(row.nextRunAt!.getTime()).toBe(reset);
    await until(id, (l) => l.status === "completed");
    const log = calls(state);
    expect(log.map((c) => c.outcome)).toEqual(["limited", "ok"]);
    expect(log[1]!.at).toBeGreaterThanOrEqual(reset);
  });

  it("resume now: the operator's resume runs the loop before the reset", async () => {
    const r = runtime();
    const state = newStateDir();
    const id = await newLoop(r, {
      agent: fakeClaude(state, ["--limit-calls", "1", "--done-at", "2", "--reset-ms", "600000"]),
    });
    await until(id, (l) => l.status === "waiting_for_limit");
    // The provider lets calls through again early (the fake's window is dropped).
    const stateFile = join(state, "state.json");
    const current = JSON.parse(readFileSync(stateFile, "utf8")) as { calls: number };
    writeFileSync(stateFile, JSON.stringify({ calls: current.calls, resetAt: 0 }));
    await requestControl(r.services, id, { kind: "resume" }, asOperator("try now"));
    await until(id, (l) => l.status === "completed");
    const ended = await events(id, "limit_wait_ended");
    expect(ended.map((e) => (e.payload as { how: string }).how)).toEqual(["resumed"]);
  });
  it("today's words ('session limit · resets 4:05:07am (UTC)', 429): every loop on the account waits to the second and resumes by itself", async () => {
    const r = runtime();
    const state = newStateDir();
    // No reset as data: the seconds must come from the words.
    const args = ["--session-words", "--no-reset-data", "--limit-calls", "1", "--done-at", "2", "--reset-ms", "4000"];
    const agent = fakeClaude(state, args);
    const first = await newLoop(r, { agent });
    const limited = await until(first, (l) => l.status === "waiting_for_limit");
    const reset = resetAt(state);
    expect(limited.nextRunAt!.getTime()).toBe(reset);
    // A brand-new loop on the same account joins the same window without a call.
    const second = await newLoop(r, { agent });
    const joined = await until(second, (l) => l.status === "waiting_for_limit" || l.status === "completed");
    expect(joined.status).toBe("waiting_for_limit");
    expect(joined.nextRunAt!.getTime()).toBe(reset);
    for (const id of [first, second]) await until(id, (l) => l.status === "completed");
    const log = calls(state);
    expect(log.map((c) => c.outcome)).toEqual(["limited", "ok", "ok"]);
    expect(log.slice(1).every((c) => c.at >= reset)).toBe(true);
    const wait = (await events(first, "limit_wait_started"))[0]!.payload as { until: number; resetKnown: boolean };
    expect(wait).toMatchObject({ until: reset, resetKnown: true });
  });

  it("an admin clears the account's window: audited with who and why, the waiting loops resume, new loops do not join", async () => {
    const r = runtime();
    const state = newStateDir();
    const agent = fakeClaude(state, [
      "--session-words",
      "--limit-calls",
      "1",
      "--done-at",
      "2",
      "--reset-ms",
      "600000",
    ]);
    const first = await newLoop(r, { agent });
    await until(first, (l) => l.status === "waiting_for_limit");
    const second = await newLoop(r, { agent });
    await until(second, (l) => l.status === "waiting_for_limit");
    const [window] = (await usageLimitOverview(db(), new Date())).windows.filter((w) => w.loops.length > 0);
    expect(window!.loops.map((l) => l.id).sort()).toEqual([first, second].sort());
    // The rejected rate_limit_event's window and use reach Settings.
    expect(window).toMatchObject({ window: "five_hour", usedPercent: 100 });
    // The provider lets calls through again (the plan was upgraded).
    const stateFile = join(state, "state.json");
    const current = JSON.parse(readFileSync(stateFile, "utf8")) as { calls: number };
    writeFileSync(stateFile, JSON.stringify({ calls: current.calls, resetAt: 0 }));

    const admin = asOperator();
    const cleared = await clearLimitWindow(r.services, window!.account, { ...admin, reason: "plan upgraded" });
    expect(cleared.resumed.sort()).toEqual([first, second].sort());
    for (const id of [first, second]) await until(id, (l) => l.status === "completed");
    const audit = await db().prisma.loopEvent.findMany({ where: { loopId: null, type: "limit_window_cleared" } });
    expect(audit.at(-1)).toMatchObject({ reason: "plan upgraded", actor: admin.actor.email });
    expect((audit.at(-1)!.payload as { account: string }).account).toBe(window!.account);
    expect((await usageLimitOverview(db(), new Date())).windows.map((w) => w.account)).not.toContain(window!.account);
    const third = await newLoop(r, { agent });
    await until(third, (l) => l.status === "completed");
    expect(await events(third, "limit_wait_started")).toEqual([]);
    await expect(clearLimitWindow(r.services, window!.account, { ...admin, reason: "again" })).rejects.toThrow(
      /no usage-limit window/,
    );
  });
});
