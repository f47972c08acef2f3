// A race of three command agents on one goal, in a real git repository with a real node:test check
// (test/race-fixtures.ts),
// on SQLite and PostgreSQL, through the app's stored-loop path (git worktree per contender, graded
// evidence): one agent never fixes the code, one fixes it at iteration 2, one at 3. The first
// verified (iteration 2) wins; the race_decided events name why; the two others are stopped through
// the control path (kill + terminate: stored requests with their audit events) with the stop type
// race_lost; the winner is handed
// to landing; cost per verified task per contender and for the race equals the sum of the rows.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, waitFor, type Harness } from "../../test/runtime-harness";
import { RACE_AGENT, raceRepo } from "../../test/race-fixtures";
import { tempRoot } from "../agents/fixtures/harness";
import { createRace } from "./race-create.service";
import { raceCompare } from "./race-compare.service";
import { costPerVerifiedReport } from "./cost-per-verified.service";
import { raceDefinitionSchema } from "./race-definition";
import { landerOptions, portsFor } from "../../test/landing-fixtures";
import { landQueue } from "../jobs/landing-runner";
import { landingsOfLoop } from "./landing-views";

const tmp = tempRoot("ralph-race-db-");
vi.stubEnv("RALPH_DATA_DIR", join(tmp.root, "data"));
afterAll(() => tmp.cleanup());

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

describeEachProvider("a race of three command agents", ({ db, kind }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  it("the first verified wins, the others stop, the winner goes to landing; cost per verified per contender", async () => {
    const repo = raceRepo(join(tmp.root, `repo-${kind}`));
    const agent = RACE_AGENT;
    h = createHarness(db(), {});
    h.runtime.ports = (loop: { id: string; config: unknown }) => portsFor(tmp.root, loop.config, loop.id);
    const contender = (label: string, solveAt: string, cost: string, sleep: string) => ({
      label,
      agent: { kind: "command", argv: [agent, solveAt, cost, sleep], timeoutSeconds: 30 },
    });
    const race = raceDefinitionSchema.parse({
      name: "fix add",
      targetBranch: "release",
      goal: "Make the tests pass",
      base: {
        workspace: repo,
        scorers: [{ kind: "command-check", name: "tests", argv: ["npm", "test"] }],
        loop: { stop: { maxIterations: 8, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
      },
      contenders: [
        contender("never", "never", "0.03", "0.4"),
        contender("second", "2", "0.01", "0"),
        contender("third", "3", "0.02", "0.4"),
      ],
    });
    const { id: raceId, loopIds } = await createRace(h.services, race, true, asOperator());
    expect(loopIds).toHaveLength(3);
    const [never, second, third] = loopIds as [string, string, string];

    const decided = await waitFor(
      () => db().prisma.race.findUniqueOrThrow({ where: { id: raceId } }),
      (r) => r.winnerLoopId !== null,
      90_000,
    );
    expect(decided.winnerLoopId).toBe(second);
    expect(decided.decidedBy).toBe("race policy");
    expect(decided.decisionReason).toBe("fix add: second passed the full evidence first");
    // The losers end stopped, through the kill and terminate controls.
    const ended = await waitFor(
      () => db().prisma.loop.findMany({ where: { raceId }, orderBy: { createdAt: "asc" } }),
      (rows) =>
        rows.every((r) => ["completed", "stopped", "failed"].includes(r.status)) && rows.every((r) => !r.leaseOwner),
      60_000,
    );
    await h.dispatcher.idle();
    const byId = new Map(ended.map((r) => [r.id, r]));
    expect(byId.get(second)!.status).toBe("completed");
    expect(byId.get(second)!.iteration).toBe(2);
    for (const loser of [never, third]) {
      expect(byId.get(loser)!.status).toBe("stopped");
      const controls = await db().prisma.controlRequest.findMany({
        where: { loopId: loser },
        orderBy: { createdAt: "asc" },
      });
      expect(controls.map((c) => c.kind)).toContain("terminate");
      expect(controls.every((c) => c.reason?.startsWith("race decided: "))).toBe(true);
      const events = await db().prisma.loopEvent.findMany({ where: { loopId: loser, type: "race_decided" } });
      expect(events).toHaveLength(1);
      expect(events[0]!.payload).toMatchObject({ raceId, winnerLoopId: second, won: false });
    }
    const winnerEvents = await db().prisma.loopEvent.findMany({ where: { loopId: second, type: "race_decided" } });
    expect(winnerEvents.map((e) => e.payload)).toEqual([{ raceId, winnerLoopId: second, won: true }]);
    // The losers ended by the race's terminate, after the decision, never by their own evidence.
    for (const loser of [never, third]) {
      // An honest stop type: another contender won (not "terminated by an operator").
      expect(byId.get(loser)!.stopType).toBe("race_lost");
      const halted = await db().prisma.loopEvent.findFirstOrThrow({ where: { loopId: loser, type: "halted" } });
      expect(halted.payload).toMatchObject({ stopType: "race_lost" });
      expect(byId.get(loser)!.finishedAt!.getTime()).toBeGreaterThanOrEqual(decided.decidedAt!.getTime());
    }

    // Cost per verified task: each loop's cost is the sum of its rows; only the winner is verified.
    const view = await raceCompare(db(), raceId);
    let raceSpend = 0;
    for (const c of view.contenders) {
      const rows = await db().prisma.iteration.findMany({ where: { loopId: c.id } });
      const spent = round(rows.reduce((s, r) => s + r.costUsd, 0));
      expect(round(c.costUsd)).toBe(spent);
      raceSpend += spent;
      expect(c.verified).toBe(c.id === second);
      expect(c.costPerVerifiedUsd).toBe(c.id === second ? c.costUsd : null);
      expect(c.points.length).toBeGreaterThan(0);
      if (c.id !== second) expect(c.stopType).toBe("race_lost");
    }
    expect(round(view.contenders.find((c) => c.id === second)!.costUsd)).toBe(0.02);
    expect(view.costPerVerified.verified).toBe(1);
    expect(round(view.costPerVerified.costPerVerifiedUsd!)).toBe(round(raceSpend));
    const winner = view.contenders.find((c) => c.id === second)!;
    expect(winner.verdictLines.map((l) => l.text)).toContain("tests: 1 of 1 targets pass");
    expect(winner.points.map((p) => p.meanScore)).toEqual([0, 1]);

    // The winner went to the merge queue (queued by the race policy), and lands onto release after the
    // queue re-ran its evidence on the rebased result; the losers are not queued.
    const [entry] = await landingsOfLoop(db().prisma, second);
    expect(entry).toMatchObject({ targetBranch: "release", actor: "race policy" });
    expect(await landQueue(landerOptions(tmp.root, db()), entry!.queueId)).toBe(1);
    expect((await landingsOfLoop(db().prisma, second))[0]!).toMatchObject({ status: "landed", reason: null });
    const landed = execFileSync("git", ["show", "release:src/math.js"], { cwd: repo, encoding: "utf8" });
    expect(landed).toContain("a + b");
    for (const loser of [never, third]) expect(await landingsOfLoop(db().prisma, loser)).toEqual([]);

    // The period report groups the same rows per race and per agent.
    const report = await costPerVerifiedReport(db(), { from: new Date(0), to: new Date(Date.now() + 1000), raceId });
    expect(report.byRace).toHaveLength(1);
    expect(round(report.byRace[0]!.costPerVerifiedUsd!)).toBe(round(raceSpend));
    expect(report.byAgent.map((a) => a.key)).toEqual(["race-agent.sh"]);
  }, 180_000);
});
