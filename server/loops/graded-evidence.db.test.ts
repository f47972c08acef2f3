// Graded evidence through the stored-loop path (the app's ports: git workspace and loop evidence from the
// stored config), on SQLite and PostgreSQL, with DEFAULT evidence settings: an agent that edits the test
// the check runs never completes; each iteration's stored scores carry the verdict lines and name the
// file; the audit log has an evidence_tampered event per iteration, the second raising the
// needs-attention alert; a fork of a tampering iteration is graded against the source's base commit.
// An honest agent completes with the verdict lines stored.
import { join } from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { alertKindOf } from "../alert-kinds";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, createHarness, type Harness } from "../../test/runtime-harness";
import { writeProject } from "../agents/fixtures/graded-loop";
import { hasCargo, requireToolchain } from "../agents/fixtures/runner-projects";
import { tempRoot } from "../agents/fixtures/harness";
import { createPorts } from "../agents/registry";
import { envSecretResolver } from "../agents/secret-resolver";
import { createLoop, forkLoop } from "./loop-create.service";
import { gitWorkspaceFor, loopEvidenceFor } from "./ports-factory";
import { loopProtectionOf } from "./loop-workspace.service";

const tmp = tempRoot("ralph-graded-db-");
vi.stubEnv("RALPH_DATA_DIR", join(tmp.root, "data"));
afterAll(() => tmp.cleanup());

const PROJECT = {
  "package.json": JSON.stringify({ name: "p", private: true, scripts: { test: "node --test" } }),
  "src/math.js": "exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\n",
  "test/math.test.js": `const test = require("node:test");\nconst assert = require("node:assert");\nconst { add, mul } = require("../src/math.js");\ntest("add adds", () => assert.strictEqual(add(2, 3), 5));\ntest("mul multiplies", () => assert.strictEqual(mul(2, 3), 6));\n`,
};
const CHEAT = `sed -i 's/assert.strictEqual(add(2, 3), 5)/assert.ok(true)/' test/math.test.js\n`;
const FIX = `sed -i 's/a - b/a + b/' src/math.js\n`;

const CARGO = {
  "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
  ".gitignore": "/target\n",
  "src/lib.rs":
    "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\npub fn mul(a: i32, b: i32) -> i32 {\n    a * b\n}\n",
  "tests/calc.rs":
    "#[test]\nfn adds() {\n    assert_eq!(calc::add(2, 3), 5);\n}\n\n#[test]\nfn multiplies() {\n    assert_eq!(calc::mul(2, 3), 6);\n}\n",
};
const CARGO_FIX = `sed -i 's/a - b/a + b/' src/lib.rs\n`;
/** Library code that finds libtest's log in its argv, writes passes into it and ends the process as a success. */
const CARGO_FORGE = `cat > src/lib.rs <<'EOF'
use std::io::Write;

pub fn add(a: i32, b: i32) -> i32 {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|w| w == "--logfile") {
        let mut log = std::fs::OpenOptions::new().append(true).open(&args[i + 1]).unwrap();
        writeln!(log, "ok adds").unwrap();
        writeln!(log, "ok multiplies").unwrap();
        std::process::exit(0);
    }
    a - b
}

pub fn mul(a: i32, b: i32) -> i32 {
    a * b
}
EOF
`;

/** Ports as the app builds them for a stored loop, sandbox off. */
function portsFor(config: unknown, loopId: string) {
  const git = gitWorkspaceFor(config);
  const c = config as { agent: unknown; scorers: unknown[] };
  return createPorts(
    { agent: c.agent, scorers: c.scorers },
    {
      workspaceDir: (id) => git.dir(id),
      git,
      evidence: loopEvidenceFor(config, git),
      secrets: envSecretResolver,
      isolation: { mode: "off", hidden: [], homeRoot: join(tmp.root, "homes"), allowHosts: [] },
    },
    loopId,
  );
}

type StoredScore = {
  score: number;
  reason: string | null;
  tests?: { grading?: { lines: { text: string }[]; tampering: { what: string }[] } };
};

describeEachProvider("graded evidence on stored loops", ({ db, kind }) => {
  let h: Harness | undefined;
  afterEach(async () => h?.stop());

  async function run(
    name: string,
    agent: string,
    maxIterations = 2,
    project: Record<string, string> = PROJECT,
    check = ["npm", "test"],
  ) {
    const repo = writeProject(join(tmp.root, `${name}-${kind}`), {
      ...project,
      "agent.sh": `#!/usr/bin/env bash\n${agent}echo "<promise>COMPLETE</promise>"\n`,
    });
    h = createHarness(db(), {});
    h.runtime.ports = (loop: { id: string; config: unknown }) => portsFor(loop.config, loop.id);
    const { id } = await createLoop(
      h.services,
      {
        goal: "Make the tests pass",
        agentKind: "command",
        definition: {
          workspace: repo,
          agent: { kind: "command", argv: ["./agent.sh"], timeoutSeconds: 30 },
          scorers: [{ kind: "command-check", name: "tests", argv: check, timeoutSeconds: 240 }],
        },
        engineConfig: { stop: { maxIterations, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
        start: true,
      },
      asOperator(),
    );
    await h.dispatcher.idle();
    const rows = await db().prisma.iteration.findMany({ where: { loopId: id }, orderBy: { number: "asc" } });
    const loop = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    return { id, rows, loop, scores: rows.map((r) => (r.scores as unknown as Record<string, StoredScore>).tests!) };
  }

  it("an agent that edits the test the check runs never completes; the tampering is stored, audited and alerted", async () => {
    const { id, rows, loop, scores } = await run("cheat", CHEAT);
    expect(rows).toHaveLength(2);
    expect(loop.status).not.toBe("completed");
    for (const s of scores) {
      expect(s.score).toBe(0);
      expect(s.tests?.grading?.tampering.map((t) => t.what)).toEqual(["test/math.test.js"]);
      expect(s.tests?.grading?.lines[0]?.text).toBe("0 of 1 targets pass (not yet: add adds)");
    }
    const events = await db().prisma.loopEvent.findMany({
      where: { loopId: id, type: "evidence_tampered" },
      orderBy: { id: "asc" },
    });
    expect(events).toHaveLength(2);
    expect(events[0]!.reason).toContain("test/math.test.js");
    expect(events.map((e) => alertKindOf({ type: e.type, payload: e.payload }))).toEqual([null, "attention"]);
    // The loop page's list: what is protected and why, and the baseline.
    const protection = await loopProtectionOf(db(), id);
    expect(protection.recorded).toBe(true);
    expect(protection.entries).toContainEqual({
      glob: "package.json",
      kind: "check",
      why: 'check "tests" runs its test script',
    });
    expect(protection.entries.map((e) => e.glob)).toEqual(expect.arrayContaining([".npmrc", "**/*.test.*", "test/**"]));
    expect(protection.baselines).toEqual([
      { check: "tests", perTest: true, targets: 1, kept: 1, ran: 2, skipped: 0, note: null },
    ]);
  }, 120_000);

  it("the second iteration caught tampering pauses the loop in needs_attention, audited with what was tampered", async () => {
    const { id, rows, loop } = await run("repeat", CHEAT, 5);
    expect(rows).toHaveLength(2);
    expect(loop.status).toBe("needs_attention");
    const events = await db().prisma.loopEvent.findMany({ where: { loopId: id, type: "tamper_needs_attention" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.reason).toContain("iteration 2 tampered with the evidence again (test/math.test.js)");
    expect(events[0]!.payload).toMatchObject({ iterations: 2, tampered: ["test/math.test.js"] });
  }, 120_000);

  it("a fork of a tampering iteration is graded against the source's base commit, not the tampered one", async () => {
    const { id } = await run("fork-source", CHEAT);
    const fork = await forkLoop(h!.services, id, 1, true, asOperator());
    await h!.dispatcher.idle();
    const forkRow = await db().prisma.loop.findUniqueOrThrow({ where: { id: fork.id } });
    const rows = await db().prisma.iteration.findMany({ where: { loopId: fork.id } });
    expect(rows.length).toBeGreaterThan(0);
    expect(forkRow.status).not.toBe("completed");
    for (const row of rows) {
      const s = (row.scores as unknown as Record<string, StoredScore>).tests!;
      expect(s.score).toBe(0);
      expect(s.tests?.grading?.tampering.map((t) => t.what)).toEqual(["test/math.test.js"]);
    }
  }, 120_000);

  it("an honest agent completes, with the verdict lines stored on its iteration", async () => {
    const { rows, loop, scores } = await run("honest", FIX);
    expect(loop.status).toBe("completed");
    expect(rows).toHaveLength(1);
    expect(scores[0]!.tests?.grading?.lines.map((l) => l.text)).toEqual([
      "1 of 1 targets pass",
      "1 of 1 kept",
      "2 ran, baseline 2",
      "0 skipped, baseline 0",
    ]);
  }, 120_000);

  const cargo = requireToolchain("cargo", hasCargo());
  it.runIf(cargo)(
    "cargo: library code that forges libtest's log never completes and is named; an honest fix completes per test",
    async () => {
      const check = ["cargo", "test", "--offline"];
      const forged = await run("cargo-forge", CARGO_FORGE, 2, CARGO, check);
      expect(forged.loop.status).not.toBe("completed");
      for (const s of forged.scores) {
        expect(s.score).toBe(0);
        expect(s.tests?.grading?.tampering.map((t) => t.what).join(" ")).toContain("src/lib.rs");
      }
      await h?.stop();
      const honest = await run("cargo-honest", CARGO_FIX, 2, CARGO, check);
      expect(honest.loop.status).toBe("completed");
      expect(honest.scores[0]!.tests?.grading?.lines.map((l) => l.text)).toEqual([
        "1 of 1 targets pass",
        "1 of 1 kept",
        "2 ran, baseline 2",
        "0 skipped, baseline 0",
      ]);
    },
    300_000,
  );
});
