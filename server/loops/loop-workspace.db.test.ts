// A stored loop whose workspace is under git, through the runtime and the
// services: each iteration stores its snapshot and code diff, a tampering
// agent is flagged (column, audit event, next prompt), an operator rolls the
// files back (a new commit, an audit event, a note in the next prompt), the
// patch downloads, and a fork starts at the forked iteration's commit.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, waitFor, type Harness } from "../../test/runtime-harness";
import { tempRoot } from "../agents/fixtures/harness";
import { ANSWER_TEST_SH, answerProject } from "../agents/fixtures/answer-project";
import { envSecretResolver } from "../agents/secret-resolver";
import { createPorts } from "../agents/registry";
import { createLoop, forkLoop, startLoop } from "./loop-create.service";
import { requestControl } from "./loop-controls.service";
import { iterationCodeDiffOf, loopPatchOf, removeLoopWorktree, rollbackLoop } from "./loop-workspace.service";
import { gitWorkspaceFor } from "./ports-factory";

const tmp = tempRoot("ralph-loop-ws-");
// gitWorkspaceFor keeps histories and worktrees under the data directory.
vi.stubEnv("RALPH_DATA_DIR", join(tmp.root, "data"));
afterAll(() => tmp.cleanup());

const definitionFor = (repo: string, agentScript: string) => ({
  workspace: repo,
  agent: { kind: "command", argv: [`./${agentScript}`], timeoutSeconds: 30 },
  scorers: [{ kind: "command-check", name: "tests", argv: ["./test.sh"], format: "tap" }],
  evidence: { protectedPaths: ["test.sh"], onTamper: "restore" },
});

/** Ports as the app builds them for a stored loop (its git workspace from the stored config), sandbox off. */
function portsFor(config: unknown, loopId: string) {
  const git = gitWorkspaceFor(config);
  const c = config as { agent: unknown; scorers: unknown[] };
  return createPorts(
    { agent: c.agent, scorers: c.scorers },
    {
      workspaceDir: (id) => git.dir(id),
      git,
      secrets: envSecretResolver,
      isolation: { mode: "off", hidden: [], homeRoot: join(tmp.root, "homes"), allowHosts: [] },
    },
    loopId,
  );
}

const gitLog = (dir: string) =>
  execFileSync("git", ["log", "--format=%s"], { cwd: dir, encoding: "utf8" }).trim().split("\n");

describeEachProvider("loop workspaces under git", ({ db, kind }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  function harness() {
    h = createHarness(db(), {});
    // The stored loop's own ports, as the app makes them.
    h.runtime.ports = (loop: { id: string; config: unknown }) => portsFor(loop.config, loop.id);
    return h;
  }

  it("stores each iteration's code diff, flags tampering, rolls back with a note, downloads the patch", async () => {
    const repo = answerProject(tmp.root, `tamper-${kind}`, "tampering-agent.sh");
    const definition = definitionFor(repo, "tampering-agent.sh");
    const h = harness();
    const { id } = await createLoop(
      h.services,
      {
        goal: "Make ./test.sh pass",
        agentKind: "command",
        definition,
        engineConfig: { stop: { maxIterations: 2, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
        start: true,
      },
      asOperator(),
    );
    await h.dispatcher.idle();
    const rows = await db().prisma.iteration.findMany({ where: { loopId: id }, orderBy: { number: "asc" } });
    expect(rows).toHaveLength(2);
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    expect(loop.status).not.toBe("completed");

    // Iteration 1: the snapshot, the flag and the code diff of the test it rewrote.
    const ws1 = rows[0]!.workspace as { sha: string; files: { path: string }[]; tampered: unknown };
    expect(ws1.files.map((f) => f.path)).toEqual(["test.sh"]);
    expect(ws1.tampered).toEqual({ files: ["test.sh"], policy: "restore" });
    const diff1 = await iterationCodeDiffOf(db(), id, 1);
    expect(diff1.sha).toBe(ws1.sha);
    expect(diff1.diff).toContain("diff --git a/test.sh b/test.sh");
    expect(diff1.diff).toContain('-if [ -f answer.txt ]; then echo "ok 1 - answer.txt exists"');
    // The next prompt says the change was reverted; the audit log names the files.
    expect(rows[1]!.input).toContain("Your change to test.sh was reverted");
    const tamperEvents = await db().prisma.loopEvent.findMany({ where: { loopId: id, type: "evidence_tampered" } });
    expect(tamperEvents.length).toBe(2);
    expect(tamperEvents[0]!.reason).toContain("test.sh");
    expect(readFileSync(join(repo, "test.sh"), "utf8")).toBe(ANSWER_TEST_SH);

    // Roll back the ended loop to iteration 1: its tampered test comes back as a new commit.
    const rolled = await rollbackLoop(h.services, id, 1, asOperator("undo the later work"));
    expect(rolled.sha).toBe(ws1.sha);
    expect(readFileSync(join(repo, "test.sh"), "utf8")).not.toBe(ANSWER_TEST_SH);
    expect(readFileSync(join(repo, "answer.txt"), "utf8")).toBe("41\n");
    expect(gitLog(repo)[0]).toBe(`ralph: roll back loop ${id} to iteration 1 (undo the later work)`);
    const audit = await db().prisma.loopEvent.findFirstOrThrow({
      where: { loopId: id, type: "workspace_rolled_back" },
    });
    expect(audit).toMatchObject({ reason: "undo the later work", actor: "local" });
    expect(audit.payload).toMatchObject({ iteration: 1, sha: ws1.sha, commit: rolled.commit });
    await expect(rollbackLoop(h.services, id, 9, asOperator())).rejects.toThrow(/Iteration 9/);
    // The patch: the branch against the baseline (the restores undid the agent's test; the roll back brought it back).
    const patch = await loopPatchOf(db(), id);
    expect(patch.fileName).toMatch(/^ralph-[0-9a-f]{8}\.patch$/);
    expect(patch.patch).toContain("diff --git a/test.sh b/test.sh");
  }, 120_000);

  it("a live loop refuses a roll back while it runs, applies it paused and tells the next prompt; a fork starts at the iteration", async () => {
    const repo = answerProject(tmp.root, `fix-${kind}`, "fix-and-test-agent.sh");
    // The agent leaves answer.txt at 42; a check that never passes keeps the loop going.
    const definition = {
      ...definitionFor(repo, "fix-and-test-agent.sh"),
      scorers: [{ kind: "command-check", name: "never", argv: ["false"] }],
    };
    const h = harness();
    const { id } = await createLoop(
      h.services,
      {
        goal: "Make ./test.sh pass",
        agentKind: "command",
        definition,
        engineConfig: { stop: { maxIterations: 8, noProgressIterations: 8 } },
        start: false,
      },
      asOperator(),
    );
    await expect(rollbackLoop(h.services, id, 1, asOperator())).rejects.toThrow(/Cannot roll back: the loop is draft/);
    await startLoop(h.services, id, asOperator());
    await waitFor(
      () => db().prisma.iteration.count({ where: { loopId: id } }),
      (n) => n >= 1,
      60_000,
    );
    await requestControl(h.services, id, { kind: "interrupt" }, asOperator());
    await h.dispatcher.idle();
    await waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => l.status === "paused" && l.leaseOwner === null,
      60_000,
    );
    const pausedAfter = await db().prisma.iteration.count({ where: { loopId: id } });
    const first = (await db().prisma.iteration.findFirstOrThrow({ where: { loopId: id, number: 1 } })).workspace as {
      sha: string;
    };
    // The agent's work after iteration 1 (simulated by hand) is undone by the roll back.
    const wsDir = await gitWorkspaceFor(definition).dir(id);
    writeFileSync(join(wsDir, "answer.txt"), "13\n");
    await rollbackLoop(h.services, id, 1, asOperator("13 is wrong"));
    expect(readFileSync(join(wsDir, "answer.txt"), "utf8")).toBe("42\n");
    await requestControl(h.services, id, { kind: "resume" }, asOperator());
    await h.dispatcher.idle();
    const next = await waitFor(
      () =>
        db().prisma.iteration.findFirst({
          where: { loopId: id, number: { gt: pausedAfter } },
          orderBy: { number: "asc" },
        }),
      (row) => row !== null,
      60_000,
    );
    expect(next!.input).toContain("rolled the workspace back to the end of iteration 1");
    expect(next!.input).toContain("13 is wrong");

    // Fork from iteration 1: the fork's worktree starts at that commit, on its own branch.
    const fork = await forkLoop(h.services, id, 1, false, asOperator());
    const forkLoopRow = await db().prisma.loop.findUniqueOrThrow({ where: { id: fork.id } });
    const forkGit = gitWorkspaceFor(forkLoopRow.config);
    const forkWs = await forkGit.prepared(fork.id);
    expect(forkWs.mode).toBe("worktree");
    expect(forkWs.baselineSha).toBe(first.sha);
    expect(forkWs.dir).not.toBe(wsDir);
    expect(readFileSync(join(forkWs.dir, "answer.txt"), "utf8")).toBe("42\n");

    // Removing the worktree is an operator action on an ended loop; the branch and the patch stay.
    await expect(removeLoopWorktree(h.services, fork.id, asOperator())).rejects.toThrow(/the loop is draft/);
    writeFileSync(join(forkWs.dir, "answer.txt"), "43\n");
    await forkGit.snapshot(fork.id, 1);
    await requestControl(h.services, fork.id, { kind: "terminate" }, asOperator());
    const removed = await removeLoopWorktree(h.services, fork.id, asOperator("done with it"));
    expect(removed).toEqual({ dir: forkWs.dir, branch: forkWs.branch });
    expect(existsSync(forkWs.dir)).toBe(false);
    const event = await db().prisma.loopEvent.findFirstOrThrow({
      where: { loopId: fork.id, type: "worktree_removed" },
    });
    expect(event.reason).toBe("done with it");
    const patch = await loopPatchOf(db(), fork.id);
    expect(patch.patch).toContain("-42\n+43");
    await expect(gitWorkspaceFor(forkLoopRow.config).dir(fork.id)).rejects.toThrow(/worktree was removed/);
    await expect(rollbackLoop(h.services, fork.id, 1, asOperator())).rejects.toThrow();
  }, 180_000);
});
