// The merge queue's router through createCaller, on SQLite and PostgreSQL: viewers read and cannot land;
// an operator lands a loop's branch and sees its place in line; a loop outside a repository is refused with
// the reason; a branch deleted by hand and a target checked out with uncommitted changes end in needs review
// with the reason (the user's files untouched), and once clean it lands with that checkout brought forward;
// drop and re-queue answer it, with who and why in the audit log.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { describeEachProvider } from "../../../test/db-providers";
import { callerAs } from "../../../test/auth-fixtures";
import { landerOptions, makeRepo, sh, testFile } from "../../../test/landing-fixtures";
import { loopWithBranch } from "../../../test/landing-loop";
import { tempRoot } from "../../agents/fixtures/harness";
import { loopBranch } from "../../agents/git/git-workspace";
import type { Actor } from "../../auth/actor";
import { landQueue } from "../../jobs/landing-runner";

const tmp = tempRoot("ralph-landing-router-");
vi.stubEnv("RALPH_DATA_DIR", join(tmp.root, "data"));
afterAll(() => tmp.cleanup());

const actor = (role: Actor["role"]): Actor => ({ id: null, email: `${role}@landing.test`, name: role, role });

describeEachProvider("landing router", ({ db, kind }) => {
  it("lands, reads, refuses with reasons, drops and re-queues", async () => {
    const repo = makeRepo(join(tmp.root, `repo-${kind}`), {
      "package.json": JSON.stringify({ name: "p", private: true }),
      "src/x.js": "exports.x = 1;\n",
      "test/x.test.js": testFile("x", 'String(require("../src/x.js").x)', "2"),
    });
    const one = await loopWithBranch(db(), repo, join(tmp.root, `one-${kind}`), ["node", "--test", "test/x.test.js"]);
    writeFileSync(join(one.wt, "src/x.js"), "exports.x = 2;\n");
    sh(one.wt, "commit", "-qam", "x is 2");
    const two = await loopWithBranch(db(), repo, join(tmp.root, `two-${kind}`), ["node", "--test", "test/x.test.js"]);
    sh(two.wt, "commit", "-q", "--allow-empty", "-m", "nothing");
    writeFileSync(join(two.wt, "y.txt"), "y\n");
    sh(two.wt, "add", "y.txt");
    sh(two.wt, "commit", "-qm", "y");

    const viewer = callerAs(db(), actor("viewer"));
    const operator = callerAs(db(), actor("operator"));
    await expect(viewer.landing.land({ loopId: one.id, targetBranch: "main" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(operator.landing.land({ loopId: one.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("Name the branch to land onto"),
    });
    const first = await operator.landing.land({ loopId: one.id, targetBranch: "main", reason: "done" });
    const second = await operator.landing.land({ loopId: two.id, targetBranch: "main" });
    expect([first.position, second.position]).toEqual([1, 2]);
    expect((await viewer.landing.ofLoop({ loopId: two.id }))[0]).toMatchObject({ status: "queued", position: 2 });
    expect(await viewer.landing.queues({})).toEqual([
      expect.objectContaining({ id: first.queueId, targetBranch: "main", open: 2 }),
    ]);

    // The user checks main out and leaves an edit: refused, with the reason; their file is as they left it.
    sh(repo, "switch", "-q", "main");
    writeFileSync(join(repo, "src/x.js"), "exports.x = 'mine';\n");
    // And the second loop's branch is deleted by hand.
    sh(two.wt, "switch", "-q", "--detach");
    sh(repo, "branch", "-D", loopBranch(two.id));
    await landQueue(landerOptions(tmp.root, db()), first.queueId);
    const queue = await viewer.landing.queue({ id: first.queueId });
    expect(queue.open).toEqual([]);
    const [b, a] = queue.history;
    expect(a).toMatchObject({ loopId: one.id, status: "needs_review" });
    expect(a!.reason).toContain("uncommitted changes");
    expect(b).toMatchObject({ loopId: two.id, status: "needs_review" });
    expect(b!.reason).toContain("was deleted");
    expect(readFileSync(join(repo, "src/x.js"), "utf8")).toBe("exports.x = 'mine';\n");

    // A clean checkout of main lands, and that checkout comes forward with it.
    sh(repo, "checkout", "-q", "--", "src/x.js");
    await operator.landing.requeue({ id: a!.id, reason: "committed my edit elsewhere" });
    await landQueue(landerOptions(tmp.root, db()), first.queueId);
    const landed = (await viewer.landing.ofLoop({ loopId: one.id }))[0]!;
    expect(landed).toMatchObject({ status: "landed", landedSha: sh(repo, "rev-parse", "main"), reason: null });
    expect(landed.detail?.checks?.[0]).toMatchObject({ name: "tests", ok: true });
    expect(sh(repo, "rev-parse", "HEAD")).toBe(landed.landedSha);
    expect(sh(repo, "status", "--porcelain")).toBe("");

    const dropped = await operator.landing.cancel({ id: b!.id, reason: "branch is gone" });
    expect(dropped.status).toBe("cancelled");
    await expect(operator.landing.cancel({ id: b!.id })).rejects.toMatchObject({ code: "CONFLICT" });
    const events = await db().prisma.loopEvent.findMany({ where: { loopId: two.id, type: "landing_cancelled" } });
    expect(events).toEqual([expect.objectContaining({ actor: "operator@landing.test", reason: "branch is gone" })]);
  }, 120_000);
});
