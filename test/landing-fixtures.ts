// The merge queue's test fixtures: a real git repository with a `main`
// branch and node:test tests, real command loops on it (each a worktree on
// its own `ralph/<id>` branch), graded as stored loops are, sandbox off.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { writeProject } from "../server/agents/fixtures/graded-loop";
import { createPorts } from "../server/agents/registry";
import { envSecretResolver } from "../server/agents/secret-resolver";
import type { AgentDeps } from "../server/agents/deps";
import type { Database } from "../server/db/client";
import { createLoop } from "../server/loops/loop-create.service";
import { gitWorkspaceFor, loopEvidenceFor } from "../server/loops/ports-factory";
import type { LanderOptions } from "../server/jobs/landing-runner";
import { asOperator, createHarness, type Harness } from "./runtime-harness";

export const sh = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" }).trim();

export const testIsolation = (root: string): AgentDeps["isolation"] => ({
  mode: "off",
  hidden: [],
  homeRoot: join(root, "homes"),
  allowHosts: [],
});

/** A repository whose `main` holds `files`; the checkout is left detached (main is not checked out there). */
export function makeRepo(dir: string, files: Record<string, string>): string {
  writeProject(dir, files);
  sh(dir, "init", "-q", "-b", "main");
  sh(dir, "add", "-A");
  sh(dir, "commit", "-q", "-m", "base");
  // The user's checkout moves off main (tests of a checked-out target switch back: landing-checkout.db.test.ts).
  sh(dir, "switch", "-q", "--detach");
  return dir;
}

export const testFile = (name: string, expr: string, expected: string) =>
  `const test = require("node:test");\nconst assert = require("node:assert");\ntest("${name}", () => assert.strictEqual(${expr}, ${JSON.stringify(expected)}));\n`;

/** Ports as the app builds them for a stored loop, sandbox off. */
export function portsFor(root: string, config: unknown, loopId: string) {
  const git = gitWorkspaceFor(config);
  const c = config as { agent: unknown; scorers: unknown[] };
  return createPorts(
    { agent: c.agent, scorers: c.scorers },
    {
      workspaceDir: (id) => git.dir(id),
      git,
      evidence: loopEvidenceFor(config, git),
      secrets: envSecretResolver,
      isolation: testIsolation(root),
    },
    loopId,
  );
}

export function loopHarness(root: string, db: Database): Harness {
  const h = createHarness(db, {}, { concurrency: 3 });
  h.runtime.ports = (loop: { id: string; config: unknown }) => portsFor(root, loop.config, loop.id);
  return h;
}

/** Creates and starts a command loop on `repo` whose agent runs `script` and whose check runs `testPath`. */
export async function startLoop(h: Harness, repo: string, name: string, script: string, testPath: string) {
  const { id } = await createLoop(
    h.services,
    {
      goal: `Make ${testPath} pass`,
      name,
      agentKind: "command",
      definition: {
        workspace: repo,
        agent: {
          kind: "command",
          argv: ["sh", "-c", `${script}\necho "<promise>COMPLETE</promise>"`],
          timeoutSeconds: 30,
        },
        scorers: [{ kind: "command-check", name: "tests", argv: ["node", "--test", testPath], timeoutSeconds: 60 }],
        loop: { stop: { maxIterations: 3, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
      },
      engineConfig: { stop: { maxIterations: 3, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
      start: true,
    },
    asOperator(),
  );
  return id;
}

export const landerOptions = (root: string, db: Database, extra: Partial<LanderOptions> = {}): LanderOptions => ({
  db,
  instanceId: "test-lander",
  leaseMs: 10_000,
  heartbeatMs: 500,
  checkTimeoutMs: 60_000,
  deps: { isolation: testIsolation(root) },
  ...extra,
});
