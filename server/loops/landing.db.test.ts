// The merge queue on real git, real node:test checks and real command loops, on SQLite and PostgreSQL
// (issue 34, done-when 1 and 2): three loops complete in parallel on one repository; two land in queue
// order with the evidence re-run recorded and both changes on main; the third conflicts, needs review with
// the conflict shown, is sent back to work (a new iteration on main's head with the conflict as its note)
// and then lands. A change whose test passes alone but fails on top of another landed change never lands.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { alertKindOf } from "../alert-kinds";
import { describeEachProvider } from "../../test/db-providers";
import { tempRoot } from "../agents/fixtures/harness";
import { asOperator, waitFor, type Harness } from "../../test/runtime-harness";
import { landerOptions, loopHarness, makeRepo, sh, startLoop, testFile } from "../../test/landing-fixtures";
import { landQueue } from "../jobs/landing-runner";
import { enqueueLanding, queueCompletedSentBack, sendBackToWork } from "./landing.service";
import { landingsOfLoop, readLandingQueue } from "./landing-views";

const tmp = tempRoot("ralph-landing-db-");
vi.stubEnv("RALPH_DATA_DIR", join(tmp.root, "data"));
afterAll(() => tmp.cleanup());

const PKG = JSON.stringify({ name: "p", private: true });

describeEachProvider("merge queue", ({ db, kind }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  const statusOf = (id: string) =>
    db()
      .prisma.loop.findUniqueOrThrow({ where: { id } })
      .then((l) => l.status);

  it("lands two loops in order with the evidence re-run, and the conflicting third after it is sent back to work", async () => {
    const repo = makeRepo(join(tmp.root, `three-${kind}`), {
      "package.json": PKG,
      "NOTES.md": "notes\n",
      "src/a.js": 'exports.a = () => "a";\n',
      "src/b.js": 'exports.b = () => "b";\n',
      "src/c.js": 'exports.c = () => "c";\n',
      "test/a.test.js": testFile("a", 'require("../src/a.js").a()', "A"),
      "test/b.test.js": testFile("b", 'require("../src/b.js").b()', "B"),
      "test/c.test.js": testFile("c", 'require("../src/c.js").c()', "C"),
    });
    const base = sh(repo, "rev-parse", "main");
    h = loopHarness(tmp.root, db());
    const a = await startLoop(
      h,
      repo,
      "a",
      `sed -i 's/"a"/"A"/' src/a.js\necho "A was here" > NOTES.md`,
      "test/a.test.js",
    );
    const b = await startLoop(h, repo, "b", `sed -i 's/"b"/"B"/' src/b.js`, "test/b.test.js");
    // C edits the line A edits; sent back, it finds the markers and keeps both.
    const c = await startLoop(
      h,
      repo,
      "c",
      `sed -i 's/"c"/"C"/' src/c.js\nif grep -q '<<<<<<<' NOTES.md; then printf 'A was here\\nC was here\\n' > NOTES.md; else echo "C was here" > NOTES.md; fi`,
      "test/c.test.js",
    );
    await h.dispatcher.idle();
    expect(await Promise.all([a, b, c].map(statusOf))).toEqual(["completed", "completed", "completed"]);

    const svc = h.services;
    const queued = [];
    for (const id of [a, b, c])
      queued.push(
        await enqueueLanding(svc, { loopId: id, actor: asOperator().actor, reason: "ship it", targetBranch: "main" }),
      );
    expect(queued.map((e) => [e.status, e.position])).toEqual([
      ["queued", 1],
      ["queued", 2],
      ["queued", 3],
    ]);
    // Queuing again keeps the loop's place.
    expect((await enqueueLanding(svc, { loopId: b, actor: asOperator().actor, targetBranch: "main" })).id).toBe(
      queued[1]!.id,
    );
    expect(sh(repo, "rev-parse", "main")).toBe(base);

    expect(await landQueue(landerOptions(tmp.root, db()), queued[0]!.queueId)).toBe(3);
    const [la, lb, lc] = await Promise.all([a, b, c].map(async (id) => (await landingsOfLoop(db().prisma, id))[0]!));
    expect([la!.status, lb!.status, lc!.status]).toEqual(["landed", "landed", "needs_review"]);
    // In queue order: B was rebased onto A's landed commit, and main is B's result.
    expect(lb!.baseSha).toBe(la!.landedSha);
    expect(sh(repo, "rev-parse", "main")).toBe(lb!.landedSha);
    expect(sh(repo, "show", "main:src/a.js")).toContain('"A"');
    expect(sh(repo, "show", "main:src/b.js")).toContain('"B"');
    expect(sh(repo, "show", "main:src/c.js")).toContain('"c"');
    // The evidence re-run is recorded with each landing.
    for (const landed of [la!, lb!]) {
      const checks = (landed.detail as { checks: { name: string; ok: boolean; reason: string }[] }).checks;
      expect(checks).toEqual([expect.objectContaining({ name: "tests", ok: true })]);
      expect(checks[0]!.reason).toContain("1 of 1 targets pass");
    }
    // The conflict is shown: the file and the markers.
    expect(lc!.reason).toContain("conflicts in NOTES.md");
    const detail = lc!.detail as { kind: string; conflicts: string[]; diff: string };
    expect(detail.kind).toBe("conflict");
    expect(detail.conflicts).toEqual(["NOTES.md"]);
    expect(detail.diff).toContain("<<<<<<<");

    const events = await db().prisma.loopEvent.findMany({
      where: { type: { startsWith: "landing_" } },
      orderBy: { id: "asc" },
    });
    const landedEvents = events.filter((e) => e.type === "landing_landed");
    expect(landedEvents.map((e) => e.loopId)).toEqual([a, b]);
    expect(alertKindOf(landedEvents[0]!)).toBe("loop_ended");
    const review = events.find((e) => e.type === "landing_needs_review")!;
    expect(review.loopId).toBe(c);
    expect(alertKindOf(review)).toBe("attention");
    expect(events.filter((e) => e.type === "landing_queued").every((e) => e.actor === "local")).toBe(true);

    // Sent back to work: a new loop continues C on main's head with the conflict as its next note.
    const sent = await sendBackToWork(svc, lc!.id, asOperator("resolve the notes conflict"));
    expect(sent.entry.status).toBe("cancelled");
    expect(sent.entry.sentBackLoopId).toBe(sent.loopId);
    await waitFor(
      () => statusOf(sent.loopId),
      (s) => s === "completed",
      60_000,
    );
    const iteration = await db().prisma.iteration.findFirstOrThrow({ where: { loopId: sent.loopId } });
    expect(iteration.number).toBeGreaterThan(1);
    expect(iteration.input).toContain("NOTES.md");
    expect(await queueCompletedSentBack(svc, new Date(0))).toBe(1);
    expect(await landQueue(landerOptions(tmp.root, db()), queued[0]!.queueId)).toBe(1);
    const again = (await landingsOfLoop(db().prisma, sent.loopId))[0]!;
    expect(again.status).toBe("landed");
    expect(sh(repo, "rev-parse", "main")).toBe(again.landedSha);
    expect(sh(repo, "show", "main:src/c.js")).toContain('"C"');
    expect(sh(repo, "show", "main:NOTES.md")).toBe("A was here\nC was here");
    const queue = await readLandingQueue(db().prisma, queued[0]!.queueId);
    expect(queue.open).toEqual([]);
    expect(queue.history.map((e) => e.status)).toEqual(["landed", "cancelled", "landed", "landed"]);
    // The user's checkout was never touched.
    expect(sh(repo, "status", "--porcelain")).toBe("");
    expect(readFileSync(join(repo, "NOTES.md"), "utf8")).toBe("notes\n");
  }, 240_000);

  it("never lands a change whose test passes alone but fails on top of another landed change", async () => {
    const repo = makeRepo(join(tmp.root, `semantic-${kind}`), {
      "package.json": PKG,
      "src/sep.js": 'exports.SEP = " ";\n',
      "src/format.js": 'const { SEP } = require("./sep");\nexports.format = (n) => n + SEP + "USD";\n',
      "src/price.js": 'exports.price = (n) => "?";\n',
      "test/format.test.js": testFile("format", 'require("../src/format.js").format(5)', "5-USD"),
      "test/price.test.js": testFile("price", 'require("../src/price.js").price(5)', "$5 "),
    });
    h = loopHarness(tmp.root, db());
    // A renames the separator's export (and uses it); B's price reads the old name.
    const a = await startLoop(
      h,
      repo,
      "rename",
      `printf 'exports.DASH = "-";\\n' > src/sep.js\nprintf 'const { DASH } = require("./sep");\\nexports.format = (n) => n + DASH + "USD";\\n' > src/format.js`,
      "test/format.test.js",
    );
    const b = await startLoop(
      h,
      repo,
      "price",
      `printf 'const { SEP } = require("./sep");\\nexports.price = (n) => "$" + n + (SEP ?? "");\\n' > src/price.js`,
      "test/price.test.js",
    );
    await h.dispatcher.idle();
    expect(await Promise.all([a, b].map(statusOf))).toEqual(["completed", "completed"]);
    const ea = await enqueueLanding(h.services, { loopId: a, actor: asOperator().actor, targetBranch: "main" });
    await enqueueLanding(h.services, { loopId: b, actor: asOperator().actor, targetBranch: "main" });
    await landQueue(landerOptions(tmp.root, db()), ea.queueId);
    const la = (await landingsOfLoop(db().prisma, a))[0]!;
    const lb = (await landingsOfLoop(db().prisma, b))[0]!;
    expect(la.status).toBe("landed");
    expect(lb.status).toBe("needs_review");
    expect(lb.landedSha).toBeNull();
    expect(lb.reason).toContain("evidence failed");
    const checks = (lb.detail as { checks: { ok: boolean; failing: string[] }[] }).checks;
    expect(checks[0]!.ok).toBe(false);
    expect(checks[0]!.failing.join("\n")).toContain("price");
    // main is A's landing, with B's change nowhere on it.
    expect(sh(repo, "rev-parse", "main")).toBe(la.landedSha);
    expect(sh(repo, "show", "main:src/price.js")).toContain('"?"');
  }, 180_000);
});
