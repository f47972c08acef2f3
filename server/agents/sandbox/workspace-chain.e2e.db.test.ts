// The attack of issue 32, end to end over real HTTP with the real job runtime
// and real sandboxed agents: an operator's agent plants a symlink to the data
// folder in its workspace; a second loop names `<root>/…/planted-link` as its
// workspace; before the fix the server `git init`ed the data folder, committed
// the secret key, job secret and database into the baseline, and a third
// loop's agent printed them. Now every step of the chain is refused, and a
// link swapped in after a loop was created is refused when the loop starts.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createUser } from "../../../test/auth-fixtures";
import { startCliApp, type CliApp } from "../../../test/cli-app";
import { describeEachProvider } from "../../../test/db-providers";
import { HttpClient } from "../../../test/http-app-server";
import { waitFor } from "../../../test/runtime-harness";
import { physicalPath } from "./workspace-guard";

// Outside /tmp: the sandbox gives agents a private one. Under the user's home, like a real deployment's folders.
const base = mkdtempSync(join(homedir(), ".ralph-chain-"));
const dataDir = join(base, "data");
const root = join(base, "roots");
mkdirSync(dataDir, { recursive: true });
mkdirSync(root, { recursive: true });
const SECRET = "THE-SERVER-SECRET-KEY-0123456789";
writeFileSync(join(dataDir, "secret-key"), SECRET, { mode: 0o600 });
writeFileSync(join(dataDir, "job-secret"), SECRET, { mode: 0o600 });
vi.stubEnv("RALPH_DATA_DIR", dataDir);
vi.stubEnv("RALPH_WORKSPACE_ROOTS", root);
vi.stubEnv("RALPH_AGENT_SANDBOX", "on");
afterAll(() => rmSync(base, { recursive: true, force: true }));

const sh = (script: string) => ({ kind: "command", argv: ["/bin/sh", "-c", script] });

describeEachProvider("a workspace can never reach the data folder", ({ db }) => {
  let app: CliApp;
  let operator: HttpClient;

  beforeAll(async () => {
    app = await startCliApp(db());
    const user = await createUser(db(), "operator");
    operator = new HttpClient(app.server.origin);
    expect((await operator.call("auth.signIn", { email: user.email, password: user.password })).status).toBe(200);
  });
  afterAll(() => app.stop());

  const create = (workspace: string, script: string, start = true) =>
    operator.call("loops.create", {
      goal: "reach the data folder",
      workspace,
      agent: sh(script),
      loop: { stop: { maxIterations: 1 }, completion: { allowNoEvidence: true } },
      start,
    });
  const ended = (id: string) =>
    waitFor(
      () => db().prisma.loop.findUniqueOrThrow({ where: { id } }),
      (l) => !["draft", "queued", "initializing", "running"].includes(l.status),
      60_000,
    );
  const outputs = async (id: string) =>
    (await db().prisma.iteration.findMany({ where: { loopId: id } })).map((i) => i.output).join("\n");
  const dataUntouched = () => {
    expect(existsSync(join(dataDir, ".git"))).toBe(false);
    expect(readdirSync(dataDir).filter((f) => f.startsWith(".git"))).toEqual([]);
  };

  it("the three-loop chain: the planted link is refused as a workspace, and no agent ever prints the key", async () => {
    const a = join(root, `a-${db().kind}`);
    mkdirSync(a);
    // Loop A's agent plants links to the data folder: absolute, relative, and to a folder around it.
    const rel = relative(a, dataDir);
    const outside = join(base, `outside-${db().kind}`);
    mkdirSync(outside);
    const planted = await create(
      a,
      `ln -s '${dataDir}' planted-link; ln -s '${rel}' relative-link; ln -s '${base}' around-link; ` +
        `mkdir -p sub; ln -s '${dataDir}' sub/deep-link; ln -s '${outside}' out-link; echo planted`,
    );
    expect(planted.status).toBe(200);
    const loopA = await ended((planted.data as { id: string }).id);
    expect(await outputs(loopA.id)).toContain("planted");
    expect(existsSync(join(a, "planted-link"))).toBe(true);

    for (const workspace of [
      join(a, "planted-link"),
      join(a, "relative-link"),
      join(a, "around-link"),
      join(a, "around-link", "data"),
      join(a, "sub", "deep-link"),
      join(a, "planted-link", "agent-homes"),
      join(a, "sub", "..", "planted-link"),
    ]) {
      const second = await create(workspace, "git log -p 2>&1; cat secret-key job-secret");
      expect(second.status, workspace).toBe(400);
      expect(second.error?.message, workspace).toMatch(/workspace: must/);
    }
    // A link out of the roots is no way around them for an operator either.
    const escaped = await create(join(a, "out-link"), "echo escaped");
    expect(escaped.status).toBe(403);
    expect(escaped.error?.message).toMatch(/operators may use folders under/);
    dataUntouched();
    // No loop got the data folder: a third loop over the same folder cannot read what was never committed.
    const third = await create(a, "cat planted-link/secret-key 2>&1; git log -p 2>&1 | head -50; echo third-done");
    const loopC = await ended((third.data as { id: string }).id);
    const said = await outputs(loopC.id);
    expect(said).toContain("third-done");
    expect(said).not.toContain(SECRET);
    dataUntouched();
  }, 180_000);

  it("a link swapped in after the loop was created is refused when it starts, before any git command", async () => {
    const b = join(root, `b-${db().kind}`);
    mkdirSync(b);
    const created = await create(b, "cat secret-key job-secret; echo swapped-run", false);
    expect(created.status).toBe(200);
    const id = (created.data as { id: string }).id;
    rmSync(b, { recursive: true });
    symlinkSync(dataDir, b);
    expect((await operator.call("loops.controls.start", { id })).status).toBe(200);
    const loop = await ended(id);
    expect(loop.status).not.toBe("completed");
    expect(await outputs(id)).not.toContain(SECRET);
    dataUntouched();
    const events = await db().prisma.loopEvent.findMany({ where: { loopId: id } });
    const iterations = await db().prisma.iteration.findMany({ where: { loopId: id } });
    expect(JSON.stringify([events, iterations])).toMatch(/must be neither inside nor around the data folder/);
    // A configuration error, not a crash to retry.
    expect(events.filter((e) => e.type === "agent_retry")).toEqual([]);
  }, 120_000);

  it("an agent lists nothing of the data folder (its HOME's parent included) and cannot read another loop's workspace", async () => {
    const mine = join(root, `mine-${db().kind}`);
    const theirs = join(root, `theirs-${db().kind}`);
    mkdirSync(mine);
    mkdirSync(theirs);
    writeFileSync(join(theirs, "private.txt"), "THEIR-PRIVATE-WORK");
    const probe = await create(
      mine,
      [
        `echo "home=$HOME"`,
        `echo "[home-parent]"; ls -A "$(dirname "$HOME")" 2>&1`,
        `echo "[home-grandparent]"; ls -A "$(dirname "$(dirname "$HOME")")" 2>&1`,
        `echo "[data]"; ls -A '${dataDir}' 2>&1`,
        `echo "[roots]"; ls -A '${root}' 2>&1`,
        `echo "[theirs]"; cat '${join(theirs, "private.txt")}' 2>&1`,
        `echo "[key]"; cat '${join(dataDir, "secret-key")}' 2>&1`,
        "echo probe-done",
      ].join("; "),
    );
    const loop = await ended((probe.data as { id: string }).id);
    const said = await outputs(loop.id);
    expect(said).toContain("probe-done");
    expect(said).not.toContain(SECRET);
    expect(said).not.toContain("THEIR-PRIVATE-WORK");
    const home = /home=(\S+)/.exec(said)![1]!;
    expect(physicalPath(home).startsWith(physicalPath(dataDir) + "/")).toBe(false);
    for (const section of ["home-parent", "data", "roots"]) {
      const listed = new RegExp(`\\[${section}\\]\\n([^[]*)`).exec(said)![1]!;
      expect(listed, section).not.toMatch(/secret-key|job-secret|ralph\.db|agent-homes|theirs/);
    }
  }, 120_000);

  it("a loop whose repository is under a hidden root still reads its own git history in its worktree", async () => {
    const repo = join(root, `repo-${db().kind}`);
    mkdirSync(repo);
    const run = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
    run("init", "-q", "-b", "main");
    writeFileSync(join(repo, "a.txt"), "a");
    run("add", ".");
    run("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "the-first-commit");
    const created = await create(repo, "git log --format=%s 2>&1 | tail -1; echo git-done");
    const loop = await ended((created.data as { id: string }).id);
    const said = await outputs(loop.id);
    expect(said).toContain("git-done");
    expect(said).toContain("the-first-commit");
  }, 120_000);
});
