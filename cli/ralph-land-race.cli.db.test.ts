// The real `ralph` bin against a running app (real HTTP, a real API token, the real job runtime running
// real command agents in git worktrees of a real repository): `ralph race start|show|pick|ls` runs three
// agents on one goal and picks the verified one; `ralph land`, `ralph queue` and `ralph landing
// send-back|requeue|drop` drive the merge queue, whose lander runs here as the app's sweep would.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "../test/auth-fixtures";
import { ralph, startCliApp, type CliApp } from "../test/cli-app";
import { ROOT } from "../test/db-providers";
import { createTempDatabase, type TempDatabase } from "../test/temp-database";
import { waitFor } from "../test/runtime-harness";
import { landerOptions } from "../test/landing-fixtures";
import { raceRepo } from "../test/race-fixtures";
import { tempRoot } from "../server/agents/fixtures/harness";
import { createApiToken } from "../server/auth/api-tokens.service";
import { openDatabase, type Database } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { landQueue } from "../server/jobs/landing-runner";

const tmp = tempRoot("ralph-cli-land-");
vi.stubEnv("RALPH_DATA_DIR", join(tmp.root, "data"));
vi.stubEnv("RALPH_AGENT_SANDBOX", "off");
// The operator may choose a repository under these folders (an admin could choose any).
vi.stubEnv("RALPH_WORKSPACE_ROOTS", tmp.root);

describe("ralph race, land, queue and landing against a running app [sqlite]", () => {
  let temp: TempDatabase;
  let db: Database;
  let app: CliApp;
  let env: Record<string, string>;
  const cli = async (...args: string[]) => {
    const r = await ralph(args, { env, timeoutMs: 120_000 });
    expect(r.stderr, `ralph ${args.join(" ")}`).toBe("");
    expect(r.code, `ralph ${args.join(" ")}: ${r.stdout}`).toBe(0);
    return r.stdout;
  };
  const json = async <T>(...args: string[]) => JSON.parse(await cli(...args, "--json")) as T;

  beforeAll(async () => {
    temp = await createTempDatabase("sqlite", "", "cli-land");
    await migrate(temp.target, ROOT);
    db = openDatabase(temp.target);
    app = await startCliApp(db);
    const user = await createUser(db, "operator");
    const { token } = await createApiToken(
      db,
      user.actor,
      { name: "ci" },
      { now: Date.now(), newId: () => crypto.randomUUID() },
    );
    env = { HOME: app.home, RALPH_URL: app.server.origin, RALPH_TOKEN: token };
  });
  afterAll(async () => {
    await app?.stop();
    await db?.close();
    await temp?.drop();
    tmp.cleanup();
  });

  it("races three agents, picks the verified one, lands it; the others need review and are answered", async () => {
    const repo = raceRepo(join(tmp.root, "repo"));
    const agent = (solveAt: string, cost: string, sleep: string) => `cmd:./race-agent.sh ${solveAt} ${cost} ${sleep}`;
    // The file sets what no flag does (the losers must keep going until the pick); flags add the rest.
    const file = join(tmp.root, "race.yaml");
    writeFileSync(file, "base:\n  loop:\n    stop:\n      noProgressIterations: 0\n");
    const created = await json<{ id: string; loopIds: string[] }>(
      "race",
      "start",
      "-f",
      file,
      "--name",
      "fix add",
      "--goal",
      "Make the tests pass",
      "--repo",
      repo,
      "--check",
      "npm test",
      "--contender",
      `never=${agent("never", "0.03", "0.5")}`,
      "--contender",
      `second=${agent("2", "0.01", "0")}`,
      "--contender",
      `third=${agent("9", "0.02", "0.5")}`,
      "--onto",
      "release",
      "--policy",
      "operator",
      "--max-iterations",
      "10",
    );
    expect(created.loopIds).toHaveLength(3);
    const [never, second, third] = created.loopIds as [string, string, string];
    // A bad contender spec is a usage error, before anything reaches the server.
    const bad = await ralph(["race", "start", "--goal", "g", "--repo", repo, "--contender", "x", "--contender", "y"], {
      env,
    });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("write label=agent");

    await waitFor(
      () => db.prisma.loop.findUniqueOrThrow({ where: { id: second } }),
      (l) => l.status === "completed",
      120_000,
    );
    const before = await cli("race", "show", created.id);
    expect(before).toContain("no winner yet (the operator picks)");
    // Picking one that has not passed is refused with the reason.
    const early = await ralph(["race", "pick", created.id, never], { env });
    expect(early.code).not.toBe(0);
    expect(early.stderr).toContain("has not passed the evidence");

    const picked = await cli("race", "pick", created.id, second, "--reason", "cheapest green");
    expect(picked).toContain(`winner ${second}`);
    expect(picked).toContain("queued to land onto release");
    await waitFor(
      () => db.prisma.loop.findMany({ where: { raceId: created.id } }),
      (rows) => rows.every((r) => ["completed", "stopped"].includes(r.status) && !r.leaseOwner),
      60_000,
    );
    const shown = await cli("race", "show", created.id);
    expect(shown).toContain("winner: fix add: second (cheapest green, by operator-");
    const line = (id: string) => shown.split("\n").find((l) => l.startsWith(id.slice(0, 8)))!;
    expect(line(second)).toMatch(/completed .*\s2\s+1\.00\s+\$0\.0200\s+yes\s+\$0\.0200/);
    for (const loser of [never, third]) {
      expect(line(loser)).toContain("stopped (race_lost)");
      expect(line(loser)).toMatch(/no\s+no verified task$/);
    }
    expect(shown).toMatch(/race: \$\d+\.\d{4} spent, 1 verified, \$\d+\.\d{4} per verified task/);
    const view = await json<{ contenders: { id: string; costUsd: number; costPerVerifiedUsd: number | null }[] }>(
      "race",
      "show",
      created.id,
    );
    expect(view.contenders.find((c) => c.id === second)!.costPerVerifiedUsd).toBe(0.02);
    expect(await cli("race", "ls")).toContain("fix add");

    // The winner was queued onto release by the pick; the lander (the app's sweep, run here) lands it.
    const winnerQueue = await json<{ id: string; open: { loopId: string; position: number }[] }[]>("queue", repo);
    expect(winnerQueue[0]!.open).toEqual([expect.objectContaining({ loopId: second, position: 1 })]);
    expect(await landQueue(landerOptions(tmp.root, db), winnerQueue[0]!.id)).toBe(1);
    expect(execFileSync("git", ["show", "release:src/math.js"], { cwd: repo, encoding: "utf8" })).toContain("a + b");
    // Someone breaks release by hand; the losers, queued by hand behind it, cannot make it green.
    const side = join(tmp.root, "side");
    execFileSync("git", ["worktree", "add", "-q", side, "release"], { cwd: repo });
    writeFileSync(join(side, "src/math.js"), "exports.add = (a, b) => a * b;\n");
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "oops"], { cwd: side });
    execFileSync("git", ["worktree", "remove", side], { cwd: repo });

    const land = await cli("land", third, "--onto", "release", "--reason", "try the loser too");
    expect(land).toMatch(/^ralph\/\S+ queued to land on release \(.+\): queued, position 1 \(entry \S+\)\n$/);
    const neverEntry = await json<{ id: string; queueId: string; position: number }>(
      "land",
      never,
      "--onto",
      "release",
    );
    expect(neverEntry.position).toBe(2);
    const queue = await cli("queue", repo);
    expect(queue).toContain("→ release (rebase)");
    for (const id of [second, third, never]) expect(queue).toContain(id.slice(0, 8));
    expect(queue).toMatch(new RegExp(`^1 +\\S+ +${third.slice(0, 8)} .* queued`, "m"));

    expect(await landQueue(landerOptions(tmp.root, db), neverEntry.queueId)).toBe(2);
    const queues =
      await json<{ open: unknown[]; history: { loopId: string; status: string; id: string }[] }[]>("queue");
    const status = (id: string) => queues[0]!.history.find((e) => e.loopId === id)!;
    expect(status(second).status).toBe("landed");
    expect(status(third).status).toBe("needs_review");
    expect(status(never).status).toBe("needs_review");

    expect(await cli("landing", "requeue", status(never).id, "--reason", "fixed by hand")).toBe(
      "re-queued at position 1\n",
    );
    expect(await cli("landing", "drop", status(never).id, "--reason", "not needed")).toBe("dropped\n");
    const sent = await cli("landing", "send-back", status(third).id, "--reason", "resolve it");
    expect(sent).toMatch(/^sent back to work as loop \S+; it is queued to land again when it completes\n$/);
    const entries = await db.prisma.landingEntry.findMany({ where: { loopId: { in: [never, third] } } });
    expect(entries.map((e) => e.status).sort()).toEqual(["cancelled", "cancelled"]);
    const audit = await db.prisma.loopEvent.findMany({ where: { loopId: never, type: { startsWith: "landing_" } } });
    expect(audit.map((e) => e.reason)).toEqual(expect.arrayContaining(["fixed by hand", "not needed"]));
    const sentBack = entries.find((e) => e.loopId === third)!.sentBackLoopId!;
    // The loop sent back runs on; it is stopped here so the app stops clean.
    await cli("terminate", sentBack);
  }, 300_000);
});
