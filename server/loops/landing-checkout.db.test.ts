// Landing onto a branch the user's checkout has checked out (issue 34, "bad input and faults"), on real git,
// SQLite and PostgreSQL. Clean, it lands and that checkout comes forward with it (`git status` clean, the new
// files there); with a modified tracked file, or an untracked file the landing would overwrite, it is refused
// with the reason and the user's files are byte-identical. Killed between moving the ref and bringing the
// checkout forward, the next lander finishes the checkout.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { tempRoot } from "../agents/fixtures/harness";
import { asOperator } from "../../test/runtime-harness";
import { landerOptions, makeRepo, sh } from "../../test/landing-fixtures";
import { loopWithBranch, queueServices } from "../../test/landing-loop";
import { landQueue } from "../jobs/landing-runner";
import { enqueueLanding } from "./landing.service";
import { landingsOfLoop } from "./landing-views";
import { getLoopDetail } from "./loop-detail.service";
import { costPerVerifiedReport } from "./cost-per-verified.service";

const tmp = tempRoot("ralph-landing-checkout-");
vi.stubEnv("RALPH_DATA_DIR", join(tmp.root, "data"));
afterAll(() => tmp.cleanup());

const TEST = `const test = require("node:test");\nconst assert = require("node:assert");\ntest("done", () => assert.strictEqual(require("../src/done.js").done, true));\n`;

describeEachProvider("landing onto a checked-out branch", ({ db, kind }) => {
  let n = 0;
  /** A repository with `main` checked out and a loop whose branch adds src/new.js and flips src/done.js. */
  const setup = async () => {
    const name = `${kind}-${++n}`;
    const repo = makeRepo(join(tmp.root, `repo-${name}`), {
      "package.json": JSON.stringify({ name: "p", private: true }),
      "README.md": "readme\n",
      "src/done.js": "exports.done = false;\n",
      "test/done.test.js": TEST,
    });
    sh(repo, "switch", "-q", "main");
    const { id, wt } = await loopWithBranch(db(), repo, join(tmp.root, `wt-${name}`), [
      "node",
      "--test",
      "test/done.test.js",
    ]);
    writeFileSync(join(wt, "src/done.js"), "exports.done = true;\n");
    writeFileSync(join(wt, "src/new.js"), "exports.fresh = 1;\n");
    sh(wt, "add", "-A");
    sh(wt, "commit", "-q", "-m", "done");
    const entry = await enqueueLanding(queueServices(db()), { loopId: id, actor: asOperator().actor });
    expect(entry.targetBranch).toBe("main");
    return { repo, id, wt, entry, before: sh(repo, "rev-parse", "main") };
  };
  const landingOf = async (id: string) => (await landingsOfLoop(db().prisma, id))[0]!;

  it("lands onto a clean checkout of main and brings its files forward", async () => {
    const { repo, id, entry, before } = await setup();
    // A loop an operator stopped and queued by hand: landed is its verified outcome (cost per verified task).
    await db().prisma.loop.update({ where: { id }, data: { status: "stopped", costUsd: 0.5 } });
    const cpv = async () => (await getLoopDetail(db(), id, Date.now())).loop.costPerVerifiedUsd;
    expect(await cpv()).toBeNull();
    expect(await landQueue(landerOptions(tmp.root, db()), entry.queueId)).toBe(1);
    const landed = await landingOf(id);
    expect(landed.status).toBe("landed");
    expect(landed.reason).toBeNull();
    expect(sh(repo, "rev-parse", "main")).toBe(landed.landedSha);
    expect(sh(repo, "rev-parse", "HEAD")).toBe(landed.landedSha);
    expect(sh(repo, "rev-parse", `${landed.landedSha}^`)).toBe(before);
    expect(sh(repo, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(readFileSync(join(repo, "src/new.js"), "utf8")).toBe("exports.fresh = 1;\n");
    expect(readFileSync(join(repo, "src/done.js"), "utf8")).toBe("exports.done = true;\n");
    expect(await cpv()).toBe(0.5);
    const report = await costPerVerifiedReport(db(), { from: new Date(0), to: new Date(Date.now() + 1000) });
    expect(report.total).toMatchObject({ loops: 1, verified: 1, costPerVerifiedUsd: 0.5 });
  }, 120_000);

  it("refuses when the checkout has a modified tracked file, and leaves it byte-identical", async () => {
    const { repo, id, entry, before } = await setup();
    writeFileSync(join(repo, "README.md"), "my edit\n");
    await landQueue(landerOptions(tmp.root, db()), entry.queueId);
    const refused = await landingOf(id);
    expect(refused.status).toBe("needs_review");
    expect(refused.reason).toContain(`the checkout at ${repo} has main checked out with uncommitted changes`);
    expect(sh(repo, "rev-parse", "main")).toBe(before);
    expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("my edit\n");
    expect(readFileSync(join(repo, "src/done.js"), "utf8")).toBe("exports.done = false;\n");
    expect(sh(repo, "status", "--porcelain")).toBe("M README.md");
  }, 120_000);

  it("refuses when an untracked file is where the landing would write, and leaves it byte-identical", async () => {
    const { repo, id, entry, before } = await setup();
    writeFileSync(join(repo, "src/new.js"), "my own new file\n");
    await landQueue(landerOptions(tmp.root, db()), entry.queueId);
    const refused = await landingOf(id);
    expect(refused.status).toBe("needs_review");
    expect(refused.reason).toContain("cannot be brought forward");
    expect(refused.reason).toContain("Untracked working tree file 'src/new.js' would be overwritten");
    // The evidence had passed: it was refused at the last step, before the ref moved.
    expect((refused.detail as { checks: { ok: boolean }[] }).checks[0]!.ok).toBe(true);
    expect(sh(repo, "rev-parse", "main")).toBe(before);
    expect(readFileSync(join(repo, "src/new.js"), "utf8")).toBe("my own new file\n");
    expect(readFileSync(join(repo, "src/done.js"), "utf8")).toBe("exports.done = false;\n");
    expect(sh(repo, "status", "--porcelain")).toBe("?? src/new.js");
  }, 120_000);

  it("finishes the checkout a lander killed after moving the ref left behind", async () => {
    const { repo, id, wt, entry, before } = await setup();
    // The state a kill -9 right after the compare-and-swap leaves: the entry checking its result, main at
    // that result, the checkout's index and files still at the old head (HEAD follows the ref).
    sh(wt, "rebase", "-q", "main");
    const result = sh(wt, "rev-parse", "HEAD");
    await db().prisma.landingEntry.update({
      where: { id: entry.id },
      data: { status: "checking", attempts: 1, baseSha: before, resultSha: result, detail: { results: [result] } },
    });
    sh(repo, "update-ref", "refs/heads/main", result, before);
    expect(sh(repo, "status", "--porcelain")).not.toBe("");
    expect(await landQueue(landerOptions(tmp.root, db()), entry.queueId)).toBe(1);
    const landed = await landingOf(id);
    expect(landed.status).toBe("landed");
    expect(landed.landedSha).toBe(result);
    expect((landed.detail as { recovered: boolean }).recovered).toBe(true);
    expect(sh(repo, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(readFileSync(join(repo, "src/new.js"), "utf8")).toBe("exports.fresh = 1;\n");
  }, 120_000);
});
