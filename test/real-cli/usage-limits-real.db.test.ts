// Usage limits with the REAL Claude Code (the pinned binary), signed in as a subscription
// (CLAUDE_CODE_OAUTH_TOKEN), against the model server playing a plan at its 5-hour cap: a 429
// with the unified rate-limit headers, which the CLI itself turns into its rate_limit_event
// (status rejected, resetsAt, five_hour) and "You've hit your 5-hour limit · resets 8:54am (UTC)".
// The stand-in-CLI version of these assertions is server/jobs/usage-limits.db.test.ts; here
// the words and events are the binary's own. Runtime, executor and storage are the product's.
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../db-providers";
import { asOperator, waitFor } from "../runtime-harness";
import { tempRoot } from "../../server/agents/fixtures/harness";
import { createLoop } from "../../server/loops/loop-create.service";
import { usageLimitOverview } from "../../server/loops/usage-limits.service";
import { clearLimitWindow } from "../../server/loops/usage-limit-clear.service";
import { LocalDispatcher } from "../../server/jobs/local-dispatcher";
import { anthropicRateLimitHeaders, startModelServer, type ModelServer } from "../model-server/model-server";
import { stagedCliDir } from "./stage-clis";
import { startDefinitionRuntime } from "../definition-runtime";

const tmp = tempRoot("ralph-real-limits-");
afterAll(() => tmp.cleanup());
const TOKEN = "sk-ant-oat01-subscription-token";

beforeAll(() => {
  // The preset runs `claude` from PATH: the staged pinned binary.
  process.env.PATH = `${stagedCliDir()}:${process.env.PATH ?? ""}`;
}, 600_000);

/** One subscription account at the model server: limited until `resetsAt` (epoch s) once `limit()` is called. */
function account() {
  const state = { resetsAt: 0, limitNext: false };
  const script = () => {
    const now = Date.now() / 1000;
    if (state.limitNext) {
      state.limitNext = false;
      // A few seconds ahead, on a whole second that is not the next minute: the seconds matter.
      state.resetsAt = Math.floor(now) + 6;
    }
    if (now < state.resetsAt)
      return {
        error: {
          status: 429,
          headers: anthropicRateLimitHeaders({ status: "rejected", resetsAt: state.resetsAt, utilization5h: 1 }),
        },
      };
    return { text: "All done. DONE" };
  };
  return { state, script };
}

describeEachProvider("usage limits with the real Claude Code (subscription token)", ({ db }) => {
  const servers: ModelServer[] = [];
  const dispatchers: LocalDispatcher[] = [];
  afterEach(async () => {
    for (const d of dispatchers.splice(0)) await d.stop();
    for (const s of servers.splice(0)) await s.close();
  });

  async function setup() {
    const acct = account();
    const server = await startModelServer({ script: acct.script });
    servers.push(server);
    const r = startDefinitionRuntime(db(), { root: tmp.root, instanceId: "real-limits", secret: TOKEN });
    dispatchers.push(r.dispatcher);
    const agent = {
      kind: "command",
      preset: "claude-code",
      env: { ANTHROPIC_BASE_URL: server.url },
      secrets: [{ name: "CLAUDE_CODE_OAUTH_TOKEN", secret: "claude-subscription" }],
      timeoutSeconds: 60,
    };
    const newLoop = async () =>
      (
        await createLoop(
          r.services,
          {
            goal: "finish the work",
            agentKind: "command",
            definition: { agent, scorers: [{ kind: "keyword", keywords: ["DONE"] }] },
            engineConfig: {
              stop: { maxIterations: 4, scoreThreshold: 1, noProgressIterations: 0 },
              retry: { maxAttempts: 3, strategy: "none" },
              health: { checkInterval: 0, breaker: { failureThreshold: 1 } },
              limits: { marginSeconds: 0, backoffSeconds: 1 },
            },
            start: true,
          },
          asOperator(),
        )
      ).id;
    // The model requests proper (a side call, e.g. a title, offers no tools).
    const main = () => server.requests.filter((q) => q.api === "anthropic" && !q.side);
    return { acct, server, r, newLoop, main };
  }

  const loopRow = (id: string) => db().prisma.loop.findUniqueOrThrow({ where: { id } });
  const until = (id: string, done: (l: { status: string }) => boolean, ms = 60_000) =>
    waitFor(() => loopRow(id), done, ms);
  const events = (id: string, type: string) =>
    db().prisma.loopEvent.findMany({ where: { loopId: id, type }, orderBy: { id: "asc" } });

  it("waits until the session limit's reset (to the second), resumes by itself; a second loop joins the window without a call", async () => {
    const { acct, server, newLoop, main } = await setup();
    acct.state.limitNext = true;
    const first = await newLoop();
    const limited = await until(first, (l) => l.status === "waiting_for_limit");
    const reset = acct.state.resetsAt * 1000;
    // The reset the CLI reported, seconds and all (no margin configured).
    expect(limited.nextRunAt!.getTime()).toBe(reset);
    // The subscription token signed the CLI in.
    expect(main().every((q) => q.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    // A brand-new loop on the same account joins the same window without spending a call.
    const before = main().length;
    const second = await newLoop();
    const joined = await until(second, (l) => l.status === "waiting_for_limit" || l.status === "completed");
    expect(joined.status).toBe("waiting_for_limit");
    expect(joined.nextRunAt!.getTime()).toBe(reset);
    expect(main().length).toBe(before);
    for (const id of [first, second]) await until(id, (l) => l.status === "completed");
    // One 429; every later call came once the reset had passed.
    const calls = main();
    expect(calls.filter((q) => q.status === 429)).toHaveLength(1);
    expect(calls.filter((q) => q.status === 200).every((q) => q.at.getTime() >= reset)).toBe(true);
    const rows = await db().prisma.iteration.findMany({ where: { loopId: first }, orderBy: { number: "asc" } });
    expect(rows.map((i) => i.status)).toEqual(["rate_limited", "succeeded"]);
    // The binary's own words for it (2.1.332 says "5-hour limit" for this window; the subscription
    // server's "session limit" is the same shape). They name the minute at most, and on the hour only the
    // hour ("resets 4pm (UTC)", seen when the reset fell at 16:00:0x): the seconds above came from its
    // rate_limit_event's resetsAt.
    expect(rows[0]!.error).toMatch(/You've hit your (5-hour|session) limit · resets \d{1,2}(:\d{2})?[ap]m \(UTC\)/);
    const wait = (await events(first, "limit_wait_started"))[0]!.payload as { until: number; resetKnown: boolean };
    expect(wait).toMatchObject({ until: reset, resetKnown: true });
    const shared = (await events(second, "limit_wait_started"))[0]!.payload as { shared: boolean };
    expect(shared.shared).toBe(true);
    expect(server.requests.length).toBeGreaterThan(0);
  }, 120_000);

  it("an admin clears the account's window: the waiting loops resume and complete", async () => {
    const { acct, r, newLoop } = await setup();
    acct.state.limitNext = true;
    const first = await newLoop();
    await until(first, (l) => l.status === "waiting_for_limit");
    // Far from its reset: only the admin's clear brings the loops back.
    acct.state.resetsAt += 3600;
    const second = await newLoop();
    await until(second, (l) => l.status === "waiting_for_limit");
    const [window] = (await usageLimitOverview(db(), new Date())).windows.filter((w) => w.loops.length > 0);
    expect(window!.loops.map((l) => l.id).sort()).toEqual([first, second].sort());
    // The binary's rate_limit_event: its window and use reach Settings.
    expect(window).toMatchObject({ window: "five_hour", usedPercent: 100 });
    // The provider lets calls through again (the plan was upgraded).
    acct.state.resetsAt = 0;
    const cleared = await clearLimitWindow(r.services, window!.account, { ...asOperator(), reason: "plan upgraded" });
    expect(cleared.resumed.sort()).toEqual([first, second].sort());
    for (const id of [first, second]) await until(id, (l) => l.status === "completed");
  }, 120_000);
});
