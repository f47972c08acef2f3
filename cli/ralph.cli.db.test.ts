// The real `ralph` bin against a running app: real HTTP, a real API token,
// the real SSE event stream, the real job runtime running demo loops.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../test/auth-fixtures";
import { ralph, spawnRalph, startCliApp, type CliApp } from "../test/cli-app";
import { ROOT } from "../test/db-providers";
import { createTempDatabase, type TempDatabase } from "../test/temp-database";
import { waitFor } from "../test/runtime-harness";
import { GATED_DEMO } from "../test/mcp-scenario";
import { createApiToken, revokeTokenById } from "../server/auth/api-tokens.service";
import { openDatabase, type Database } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { EXIT } from "./exit-codes";

describe("ralph CLI against a running app [sqlite]", () => {
  let temp: TempDatabase;
  let db: Database;
  let app: CliApp;
  let env: Record<string, string>;
  let operatorToken: string;
  let viewerToken: string;
  let files: string;

  const token = async (role: "viewer" | "operator", name: string) => {
    const user = await createUser(db, role);
    return {
      user,
      ...(await createApiToken(db, user.actor, { name }, { now: Date.now(), newId: () => crypto.randomUUID() })),
    };
  };
  const loopFile = (name: string, definition: object, yaml?: string) => {
    const path = join(files, name);
    writeFileSync(path, yaml ?? JSON.stringify(definition));
    return path;
  };
  const loopRow = (id: string) => db.prisma.loop.findUniqueOrThrow({ where: { id } });
  const slowDemo = (extra: object = {}, delayMs = 400) => ({
    goal: "a loop that keeps going",
    agent: { kind: "demo", delayMs, failureRate: 0, stepsToComplete: 50 },
    // Outlasts the tests that use it, even on a loaded machine: they terminate it themselves.
    loop: { stop: { maxIterations: 400, noProgressIterations: 0 }, completion: { allowNoEvidence: true }, ...extra },
  });

  beforeAll(async () => {
    temp = await createTempDatabase("sqlite", "", "cli");
    await migrate(temp.target, ROOT);
    db = openDatabase(temp.target);
    app = await startCliApp(db);
    operatorToken = (await token("operator", "ci")).token;
    viewerToken = (await token("viewer", "dashboard-bot")).token;
    env = { HOME: app.home, RALPH_URL: app.server.origin, RALPH_TOKEN: operatorToken };
    files = mkdtempSync(join(tmpdir(), "ralph-cli-files-"));
  });
  afterAll(async () => {
    await app?.stop();
    await db?.close();
    await temp?.drop();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  it("login checks the pasted token and stores it 0600; RALPH_URL/RALPH_TOKEN override the file", async () => {
    const home = { HOME: app.home };
    const login = await ralph(["login", "--url", `${app.server.origin}/`], { env: home, input: `${operatorToken}\n` });
    expect(login.stderr).toBe("");
    expect(login).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Logged in to http:\/\/127\.0\.0\.1:\d+ as operator-/),
    });
    const path = join(app.home, ".config/ralph/config.json");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(app.home, ".config/ralph")).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ url: app.server.origin, token: operatorToken });

    const whoami = await ralph(["whoami", "--json"], { env: home });
    expect(JSON.parse(whoami.stdout)).toMatchObject({ url: app.server.origin, role: "operator" });
    // The environment wins over the file.
    const viewer = await ralph(["whoami", "--json"], { env: { ...home, RALPH_TOKEN: viewerToken } });
    expect(JSON.parse(viewer.stdout)).toMatchObject({ role: "viewer" });
    const elsewhere = await ralph(["whoami"], { env: { ...home, RALPH_URL: "http://127.0.0.1:9" } });
    expect(elsewhere.code).toBe(EXIT.unreachable);
    expect(elsewhere.stderr).toMatch(/unreachable/);

    const wrong = await ralph(["login", "--url", app.server.origin, "--token", `rct_${"x".repeat(43)}`], { env: home });
    expect(wrong.code).toBe(EXIT.denied);
    // A refused login leaves the stored token alone.
    expect(JSON.parse(readFileSync(path, "utf8")).token).toBe(operatorToken);
  });

  it("start --agent demo --goal … --wait prints one progress line per iteration and exits 0 on completion", async () => {
    const run = await ralph(["start", "--agent", "demo", "--goal", "Write a rollout plan", "--wait"], {
      env,
      timeoutMs: 120_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(EXIT.completed);
    const id = /^started (\S+)$/m.exec(run.stdout)![1]!;
    const loop = await loopRow(id);
    expect(loop).toMatchObject({ status: "completed", goal: "Write a rollout plan", createdById: expect.any(String) });
    const lines = run.stdout.split("\n").filter((l) => /^\d+\/\d+ {2}/.test(l));
    const iterations = await db.prisma.iteration.findMany({ where: { loopId: id }, orderBy: { number: "asc" } });
    // One line per stored iteration (retries and re-runs included), in order, with n/max, score, cost and health.
    expect(lines.map((l) => Number(l.split("/")[0]))).toEqual(iterations.map((i) => i.number));
    expect(lines.at(-1)).toMatch(
      /^\d+\/15 {2}succeeded {2}score \d\.\d\d {2}cost \$\d+\.\d{4} \(total \$\d+\.\d{4} of \$1\.0000\) {2}health \w+$/,
    );
    expect(run.stdout).toMatch(new RegExp(`${id} completed \\(\\w+\\) after ${loop.iteration} iterations`));
    // The audit log says the token started it.
    const created = await db.prisma.loopEvent.findFirstOrThrow({ where: { loopId: id, type: "loop_created" } });
    expect(created.actor).toMatch(/\(token "ci"\)$/);
  });

  it("start -f loop.yaml / loop.json --wait exits 2 when a limit or the budget stops the loop", async () => {
    const yaml = loopFile(
      "loop.yaml",
      {},
      [
        "goal: never quite done",
        "agent: { kind: demo, delayMs: 0, failureRate: 0, stepsToComplete: 50 }",
        "loop:",
        "  stop: { maxIterations: 3, noProgressIterations: 0 }",
        "  completion: { allowNoEvidence: true }",
      ].join("\n"),
    );
    const limited = await ralph(["start", "-f", yaml, "--wait"], { env });
    expect(limited.code).toBe(EXIT.stopped);
    expect(limited.stdout).toMatch(/stopped \(max_iterations\) after 3 iterations/);

    const json = loopFile("loop.json", {
      goal: "spend it all",
      agent: { kind: "demo", delayMs: 0, failureRate: 0, stepsToComplete: 50 },
      loop: { stop: { maxIterations: 30, noProgressIterations: 0 }, completion: { allowNoEvidence: true } },
    });
    const budget = await ralph(["start", "-f", json, "--budget", "0.0001", "--wait", "--json"], { env });
    expect(budget.code).toBe(EXIT.stopped);
    const final = JSON.parse(budget.stdout) as { status: string; stopType: string; iteration: number };
    expect(final).toMatchObject({
      status: "stopped",
      stopType: expect.stringMatching(/^(budget_exhausted|max_cost)$/),
    });
    expect(final.iteration).toBeLessThan(30);
  });

  it("ls, status, logs and report read what the server has, as text and as --json", async () => {
    const run = await ralph(
      [
        "start",
        "-f",
        loopFile("two.json", {
          goal: "two steps",
          agent: { kind: "demo", delayMs: 0, failureRate: 0 },
          loop: { stop: { maxIterations: 2 }, completion: { allowNoEvidence: true } },
        }),
        "--name",
        "two-step",
        "--wait",
      ],
      { env },
    );
    expect(run.code).toBe(EXIT.stopped);
    const id = /^started (\S+)$/m.exec(run.stdout)![1]!;

    const listed = JSON.parse((await ralph(["ls", "--json", "--search", "two-step"], { env })).stdout) as {
      items: { id: string; status: string }[];
    };
    expect(listed.items).toEqual([expect.objectContaining({ id, status: "stopped" })]);
    const table = await ralph(["ls", "--status", "stopped"], { env });
    expect(table.stdout).toMatch(new RegExp(`^${id} +stopped +2/2 `, "m"));
    expect((await ralph(["ls", "--status", "completed", "--json"], { env })).stdout).not.toContain(id);

    const status = await ralph(["status", id], { env });
    expect(status.code).toBe(EXIT.stopped);
    expect(status.stdout).toContain(`${id} stopped (max_iterations) after 2 iterations`);
    expect(JSON.parse((await ralph(["status", id, "--json"], { env })).stdout).loop).toMatchObject({
      id,
      iteration: 2,
    });

    const logs = await ralph(["logs", id], { env });
    expect(logs.code).toBe(0);
    expect(logs.stdout.match(/^── iteration \d/gm)).toEqual(["── iteration 1", "── iteration 2"]);
    const rows = await db.prisma.iteration.findMany({ where: { loopId: id }, orderBy: { number: "asc" } });
    expect(logs.stdout).toContain(rows[1]!.output.trim().slice(0, 200));
    const one = JSON.parse((await ralph(["logs", id, "--iteration", "1", "--json"], { env })).stdout) as {
      number: number;
    }[];
    expect(one.map((i) => i.number)).toEqual([1]);
    expect((await ralph(["logs", id, "--iteration", "9"], { env })).code).toBe(EXIT.failed);

    const md = await ralph(["report", id, "--md"], { env });
    expect(md.stdout).toMatch(/^# two-step\n/);
    expect(md.stdout).toContain("## Iterations");
    const report = JSON.parse((await ralph(["report", id, "--json"], { env })).stdout) as { series: unknown[] };
    expect(report.series).toHaveLength(2);

    const share = await ralph(["share", id, "--expires", "7d"], { env });
    expect(share.stdout).toMatch(new RegExp(`^${app.server.origin}/r/[A-Za-z0-9_-]{43}\\nexpires `));
    const link = await db.prisma.shareLink.findFirstOrThrow({ where: { loopId: id } });
    expect(link.expiresAt!.getTime() - link.createdAt.getTime()).toBeCloseTo(7 * 86_400_000, -5);
  });

  it("watch follows the live stream, survives a dropped connection, and the controls work with the UI's rules", async () => {
    // Long agent calls, so the kill below can be sent while one is certainly in flight.
    const started = await ralph(["start", "-f", loopFile("slow.json", slowDemo({}, 1_500))], { env });
    const id = started.stdout.trim();
    const watch = spawnRalph(["watch", id], env);
    await waitFor(
      async () => watch.output(),
      (out) => /^\d+\/400 {2}succeeded/m.test(out),
      30_000,
    );
    app.server.dropConnections();
    const before = watch.output().match(/^\d+\/400 /gm)!.length;
    await waitFor(
      async () => watch.output().match(/^\d+\/400 /gm)?.length ?? 0,
      (n) => n >= before + 2,
      30_000,
    );

    const nudge = await ralph(["nudge", id, "focus", "on", "rollback", "--reason", "from CI"], { env });
    expect(nudge).toMatchObject({ code: 0, stdout: expect.stringMatching(new RegExp(`^nudge ${id}: `)) });
    // Under load a kill sent blindly can land between two calls and interrupt none: send it just after a call starts.
    // (A step's commit marks the next call in flight, so a number past the one seen now is a call just begun.)
    const seen = await loopRow(id);
    await waitFor(
      () => loopRow(id),
      (l) => (l.inflightIteration ?? 0) > (seen.inflightIteration ?? seen.iteration),
      30_000,
    );
    const kill = await ralph(["kill", id, "--reason", "stop now"], { env });
    expect(kill.code).toBe(0);
    await waitFor(
      () => loopRow(id),
      (l) => l.status === "paused",
      30_000,
    );
    // watch stops at the pause with 130, as docs/cli.md says, and says how to go on (issue 31: it never exited)...
    expect(await watch.exited).toBe(EXIT.interrupted);
    expect(watch.output()).toContain(`paused: ralph resume ${id}`);
    const interrupted = await db.prisma.iteration.count({ where: { loopId: id, status: "interrupted" } });
    expect(interrupted).toBe(1);
    expect((await ralph(["status", id], { env })).code).toBe(EXIT.interrupted);
    // ...an approval on a loop without a gate is refused with the server's reason...
    const approve = await ralph(["approve", id], { env });
    expect(approve.code).toBe(EXIT.failed);
    expect(approve.stderr).toMatch(/^ralph: .+/);
    // ...and a viewer's token cannot act at all.
    const viewer = await ralph(["resume", id], { env: { ...env, RALPH_TOKEN: viewerToken } });
    expect(viewer.code).toBe(EXIT.denied);
    expect(viewer.stderr).toContain("operator role");

    expect((await ralph(["resume", id], { env })).code).toBe(0);
    await waitFor(
      () => loopRow(id),
      (l) => l.status === "running" || l.iteration > 0,
      30_000,
    );
    const rewatch = spawnRalph(["watch", id], env);
    await waitFor(
      async () => rewatch.output(),
      (out) => out.includes(id),
      30_000,
    );
    expect((await ralph(["terminate", id, "--reason", "enough"], { env })).code).toBe(0);
    const code = await rewatch.exited;
    expect(code).toBe(EXIT.interrupted);
    expect(rewatch.output()).toMatch(new RegExp(`${id} stopped \\(explicit_stop\\)`));
    const events = await db.prisma.loopEvent.findMany({ where: { loopId: id, type: "control_requested" } });
    expect(events.map((e) => e.actor)).toEqual(expect.arrayContaining([expect.stringContaining('(token "ci")')]));
  }, 180_000);

  it("--wait --no-block exits 3 at an approval gate; approve lets the loop finish", async () => {
    const gated = loopFile("gated.json", GATED_DEMO);
    const run = await ralph(["start", "-f", gated, "--wait", "--no-block"], { env });
    expect(run.code).toBe(EXIT.attention);
    const id = /^started (\S+)$/m.exec(run.stdout)![1]!;
    expect(run.stdout).toContain(`ralph approve ${id}`);
    expect((await ralph(["approve", id, "--comment", "ship it"], { env })).code).toBe(0);
    const watched = await ralph(["watch", id], { env });
    expect(watched.code).toBe(EXIT.completed);
  });

  it("answer, handoff, interrupt, reject and request-changes go through the same rules; alerts mute and unmute per loop", async () => {
    const id = (await ralph(["start", "-f", loopFile("slow2.json", slowDemo())], { env })).stdout.trim();
    await waitFor(
      () => loopRow(id),
      (l) => l.iteration >= 1,
      30_000,
    );
    // The loop is not waiting for an answer: refused with the reason, and recorded.
    const early = await ralph(["answer", id, "use", "the", "staging", "database"], { env });
    expect(early.code).toBe(1);
    expect(early.stderr).toContain("not waiting for an answer");
    expect((await ralph(["handoff", id, "--reason", "fresh context"], { env })).code).toBe(0);
    const snooze = await ralph(["mute", id, "budget", "--for", "2h"], { env });
    expect(snooze).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^budget alerts for \S+ muted until \d{4}-/),
    });
    const mute = await db.prisma.alertMute.findFirstOrThrow({ where: { loopId: id, kind: "budget" } });
    expect(mute.until!.getTime() - Date.now()).toBeGreaterThan(119 * 60_000);
    expect((await ralph(["mute", id, "everything"], { env })).code).toBe(EXIT.usage);
    expect((await ralph(["unmute", id, "budget"], { env })).code).toBe(0);
    expect(await db.prisma.alertMute.count({ where: { loopId: id } })).toBe(0);
    expect((await ralph(["interrupt", id], { env })).code).toBe(0);
    await waitFor(
      () => loopRow(id),
      (l) => l.status === "paused",
      30_000,
    );
    const requests = await db.prisma.controlRequest.findMany({ where: { loopId: id }, orderBy: { createdAt: "asc" } });
    expect(requests.map((r) => [r.kind, r.status])).toEqual([
      ["answer", "rejected"],
      ["force_handoff", expect.any(String)],
      ["interrupt", expect.any(String)],
    ]);
    expect(requests[0]!.payload).toEqual({ message: "use the staging database" });
    expect((await ralph(["terminate", id], { env })).code).toBe(0);

    const gated = loopFile("gated2.json", GATED_DEMO);
    const waiting = await ralph(["start", "-f", gated, "--wait", "--no-block", "--json"], { env });
    expect(waiting.code).toBe(EXIT.attention);
    const gatedId = (JSON.parse(waiting.stdout) as { id: string }).id;
    expect((await ralph(["request-changes", gatedId], { env })).code).toBe(EXIT.usage);
    expect((await ralph(["reject", gatedId, "--comment", "not yet"], { env })).code).toBe(0);
    const approval = await waitFor(
      () => db.prisma.approval.findFirstOrThrow({ where: { loopId: gatedId }, orderBy: { requestedAt: "asc" } }),
      (a) => a.status !== "pending",
      30_000,
    );
    expect(approval).toMatchObject({ status: "rejected", comment: "not yet" });
    await ralph(["terminate", gatedId], { env });
  }, 180_000);

  it("usage errors exit 64, a revoked token 77, an unreachable server 69", async () => {
    expect((await ralph(["frobnicate"], { env })).code).toBe(EXIT.usage);
    expect((await ralph(["start", "--agent", "nope", "--goal", "x"], { env })).code).toBe(EXIT.usage);
    expect((await ralph(["start", "-f", join(files, "missing.json")], { env })).code).toBe(EXIT.usage);
    expect((await ralph(["start", "--agent", "command", "--goal", "x"], { env })).code).toBe(EXIT.usage);
    const nowhere = mkdtempSync(join(tmpdir(), "ralph-cli-empty-home-"));
    const noToken = await ralph(["ls"], { env: { HOME: nowhere, RALPH_URL: app.server.origin, RALPH_TOKEN: "" } });
    expect(noToken).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining("ralph login") });
    rmSync(nowhere, { recursive: true, force: true });
    expect((await ralph(["ls"], { env: { ...env, RALPH_URL: "http://127.0.0.1:9" } })).code).toBe(EXIT.unreachable);

    const { user, token: doomed, row } = await token("operator", "doomed");
    expect((await ralph(["ls"], { env: { ...env, RALPH_TOKEN: doomed } })).code).toBe(0);
    await revokeTokenById(db, user.actor, row.id, Date.now());
    const refused = await ralph(["ls"], { env: { ...env, RALPH_TOKEN: doomed } });
    expect(refused.code).toBe(EXIT.denied);
    expect(refused.stderr).toMatch(/revoked/);
  });
});
