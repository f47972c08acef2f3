// `ralph run` in a fresh folder with no server: the embedded SQLite database
// is created there, the loop runs to its end in the CLI's own process with the
// worker's runtime, and the exit code says how it ended.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ralph, spawnRalph } from "../test/cli-app";
import { waitFor } from "../test/runtime-harness";
import { openDatabase, type Database } from "../server/db/client";
import { EXIT } from "./exit-codes";

describe("ralph run: headless, no server [sqlite]", () => {
  let folder: string;
  let db: Database | undefined;
  const database = () =>
    (db ??= openDatabase({
      kind: "sqlite",
      url: `file:${join(folder, "data/ralph.db")}`,
      file: join(folder, "data/ralph.db"),
    }));
  const file = (name: string, definition: object) => {
    writeFileSync(join(folder, name), JSON.stringify(definition));
    return name;
  };
  const run = (args: string[]) => ralph(["run", ...args], { cwd: folder, env: { HOME: folder }, timeoutMs: 120_000 });

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "ralph-run-"));
  });
  afterAll(async () => {
    await db?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("runs to completion on evidence and exits 0, leaving the loop in the folder's database", async () => {
    const done = await run([
      "-f",
      file("done.json", {
        goal: "say something",
        agent: { kind: "demo", delayMs: 0, failureRate: 0 },
        scorers: [{ kind: "length", name: "length", min: 1 }],
        loop: { stop: { maxIterations: 5, scoreThreshold: 0.5 }, completion: { evidence: ["score"] } },
      }),
    ]);
    expect(done.stderr).toBe("");
    expect(done.code).toBe(EXIT.completed);
    const id = /^(\S+): running here on sqlite (.+)$/m.exec(done.stdout)!;
    expect(id[2]).toBe(join(folder, "data/ralph.db"));
    expect(done.stdout).toMatch(/^1\/5 {2}succeeded {2}score 1\.00/m);
    const loop = await database().prisma.loop.findUniqueOrThrow({ where: { id: id[1] } });
    expect(loop).toMatchObject({ status: "completed", iteration: 1 });
    expect(await database().prisma.checkpoint.count({ where: { loopId: loop.id } })).toBeGreaterThan(0);
  });

  it("the README's demo example completes (issue 31: its goal lacked a term its scorer requires)", async () => {
    const readme = readFileSync(join(process.cwd(), "README.md"), "utf8");
    const block = /\*\*Demo agent \(no keys\)\*\*[\s\S]*?```json\n([\s\S]*?)\n```/.exec(readme)![1]!;
    const example = JSON.parse(block) as { agent: Record<string, unknown> };
    // As written, only without the pretend work time, on its own seed and two others.
    for (const seed of [example.agent.seed, 7, 1234]) {
      const agent = { ...example.agent, delayMs: 0, seed };
      const done = await run(["-f", file(`readme-${String(seed)}.json`, { ...example, agent }), "--json"]);
      const final = JSON.parse(done.stdout) as { status: string; stopType: string };
      expect({ seed, ...final }).toMatchObject({ seed, status: "completed", stopType: "score_threshold" });
      expect(done.code).toBe(EXIT.completed);
    }
  }, 180_000);

  it("a command agent in a project inside the folder it runs from: no warning, and the folder is not taken for the app's", async () => {
    // Before, `ralph run` looked for its spawn helper in the user's folder (a warning on stderr) and
    // refused this workspace as "inside the app folder", its working folder.
    const project = join(folder, "project");
    mkdirSync(project);
    writeFileSync(join(project, "agent.sh"), "#!/bin/sh\necho done > result.txt\n", { mode: 0o755 });
    mkdirSync(join(project, "test"));
    writeFileSync(
      join(project, "test/result.test.js"),
      'const test = require("node:test");\nconst fs = require("node:fs");\ntest("result", () => fs.statSync("result.txt"));\n',
    );
    const done = await run([
      "-f",
      file("command.json", {
        goal: "write the result",
        workspace: project,
        agent: { kind: "command", argv: ["./agent.sh"], timeoutSeconds: 30 },
        scorers: [{ kind: "command-check", name: "result", argv: ["node", "--test"], timeoutSeconds: 30 }],
        loop: { stop: { maxIterations: 2, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
      }),
    ]);
    expect(done.stderr).toBe("");
    expect(done.code).toBe(EXIT.completed);
  });

  it("exits 2 when the budget stops the loop", async () => {
    const spent = await run([
      "-f",
      file("spend.json", {
        goal: "spend it",
        agent: { kind: "demo", delayMs: 0, failureRate: 0, stepsToComplete: 50 },
        loop: { stop: { maxIterations: 30, noProgressIterations: 0 }, completion: { allowNoEvidence: true } },
      }),
      "--budget",
      "0.0001",
      "--json",
    ]);
    expect(spent.code).toBe(EXIT.stopped);
    const final = JSON.parse(spent.stdout) as { status: string; stopType: string; iteration: number };
    expect(final).toMatchObject({
      status: "stopped",
      stopType: expect.stringMatching(/^(budget_exhausted|max_cost)$/),
    });
    expect(final.iteration).toBeLessThan(30);
  });

  it("SIGINT kills the running iteration, records it as interrupted, and exits 130", async () => {
    const child = spawnRalph(
      [
        "run",
        "-f",
        file("slow.json", {
          goal: "take your time",
          agent: { kind: "demo", delayMs: 20_000, failureRate: 0, stepsToComplete: 50 },
          loop: { stop: { maxIterations: 5 }, completion: { allowNoEvidence: true } },
        }),
      ],
      { HOME: folder },
      folder,
    );
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const id = (await waitFor(async () => /^(\S+): running here/m.exec(child.output())?.[1], Boolean, 60_000))!;
    await waitFor(
      async () => (await database().prisma.loop.findUnique({ where: { id } }))?.inflightIteration ?? null,
      (n) => n === 1,
      60_000,
    );
    // One Ctrl-C under npx arrives twice (the terminal's, and the one npx forwards): one press, said once.
    child.kill("SIGINT");
    setTimeout(() => child.kill("SIGINT"), 20);
    expect(await exited).toBe(EXIT.interrupted);
    expect(child.output().match(/SIGINT, killing the running iteration/g)).toHaveLength(1);
    const iterations = await database().prisma.iteration.findMany({ where: { loopId: id } });
    expect(iterations.map((i) => [i.number, i.status])).toEqual([[1, "interrupted"]]);
    expect(await database().prisma.loop.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "paused" });
    const kill = await database().prisma.controlRequest.findFirstOrThrow({ where: { loopId: id, kind: "kill" } });
    expect(kill).toMatchObject({ status: "applied", reason: "SIGINT to ralph run" });
  }, 120_000);

  it("a definition the server would refuse is a usage error", async () => {
    const bad = await run(["-f", file("bad.json", { goal: "", agent: { kind: "demo" } })]);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toMatch(/^ralph: bad\.json: goal: /);
  });
});
