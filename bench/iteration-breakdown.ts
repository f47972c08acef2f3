// Where the end-to-end gap goes, measured in this process with the app's own
// parts: the command agent with test/fixtures/instant-agent.sh, the loop's
// git workspace (its snapshot per iteration), the agent tracker, the slice
// runner and the step commit on a scratch database. Each part is timed by
// wrapping it, and the script stamps its own start and end, so the gap splits
// into spawn, exit, snapshot and the runtime's own work between two calls.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentPort } from "../server/engine";
import type { Database } from "../server/db/client";
import { createPorts } from "../server/agents/registry";
import { commandAgentSchema } from "../server/agents/command.schema";
import { envSecretResolver } from "../server/agents/secret-resolver";
import { hiddenPaths } from "../server/agents/sandbox/isolation";
import { loopGitWorkspace, type LoopGitWorkspace } from "../server/agents/git/loop-workspace";
import { evidenceSchema } from "../server/loops/loop-definition";
import { LocalDispatcher } from "../server/jobs/local-dispatcher";
import { DEFAULT_SETTINGS, type JobRuntime } from "../server/jobs/runtime-deps";
import { systemDeps } from "../server/jobs/system-deps";
import { createLoop } from "../server/loops/loop-create.service";
import { LOCAL_OPERATOR } from "../server/auth/actor";
import { percentile } from "./runtime-bench";

const wall = () => performance.timeOrigin + performance.now();

export interface Breakdown {
  iterations: number;
  /** Median ms per part, in the order they happen. */
  parts: { name: string; p50: number; p95: number }[];
  gapP50: number;
  gapP99: number;
}

export async function measureBreakdown(db: Database, root: string, iterations = 300): Promise<Breakdown> {
  const dir = mkdtempSync(join(tmpdir(), "ralph-bench-breakdown-"));
  const stampFile = join(dir, "stamps.txt");
  const marks: { runStart: number; runEnd: number; snapStart: number; snapEnd: number }[] = [];
  try {
    const git = loopGitWorkspace({
      source: (id) => join(dir, "workspaces", id),
      isolation: "worktree",
      worktreesDir: join(dir, "worktrees"),
      evidence: evidenceSchema.parse({}),
    });
    const timedGit: LoopGitWorkspace = {
      ...git,
      async snapshot(loopId, iteration) {
        const m = marks[marks.length - 1]!;
        m.snapStart = wall();
        try {
          return await git.snapshot(loopId, iteration);
        } finally {
          m.snapEnd = wall();
        }
      },
    };
    const config = commandAgentSchema.parse({
      kind: "command",
      argv: [join(root, "test/fixtures/instant-agent.sh")],
      env: { STAMP_FILE: stampFile },
      sandbox: "off",
    });
    const dispatcher = new LocalDispatcher();
    const rt: JobRuntime = {
      db,
      dispatcher,
      ports: (loop) => {
        const ports = createPorts(
          { agent: config },
          {
            workspaceDir: (id) => git.dir(id),
            git: timedGit,
            secrets: envSecretResolver,
            isolation: { mode: "off", hidden: hiddenPaths(dir, root), homeRoot: join(dir, "homes"), allowHosts: [] },
            ...(loop.tracker ? { tracker: loop.tracker } : {}),
          },
          loop.id,
        );
        const agent: AgentPort = {
          async run(req) {
            const m = { runStart: wall(), runEnd: NaN, snapStart: NaN, snapEnd: NaN };
            marks.push(m);
            try {
              return await ports.agent.run(req);
            } finally {
              m.runEnd = wall();
            }
          },
        };
        return { ...ports, agent };
      },
      engine: systemDeps,
      settings: { ...DEFAULT_SETTINGS },
      instanceId: "bench-breakdown",
    };
    dispatcher.attach(rt);
    await createLoop(
      { db, dispatcher, engine: systemDeps },
      {
        goal: "bench: answer at once",
        agentKind: "command",
        definition: { agent: config },
        engineConfig: {
          stop: { maxIterations: iterations, noProgressIterations: 0, maxConsecutiveFailures: 0 },
          completion: { allowNoEvidence: true },
        },
        start: true,
      },
      { actor: LOCAL_OPERATOR, reason: "bench" },
    );
    await dispatcher.idle();

    const stamps = readFileSync(stampFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => Number(l.split(" ")[1]) * 1000);
    const rows = marks.map((m, i) => ({ ...m, start: stamps[2 * i]!, end: stamps[2 * i + 1]! }));
    const part = (name: string, f: (r: (typeof rows)[number], next: (typeof rows)[number]) => number) => {
      const values = rows.slice(0, -1).map((r, i) => f(r, rows[i + 1]!));
      return { name, p50: percentile(values, 50), p95: percentile(values, 95) };
    };
    const gaps = rows.slice(0, -1).map((r, i) => rows[i + 1]!.start - r.end);
    return {
      iterations: rows.length,
      parts: [
        part("agent's script body (in-script)", (r) => r.end - r.start),
        part("script end → process closed, output parsed", (r) => r.snapStart - r.end),
        part("git snapshot of the workspace", (r) => r.snapEnd - r.snapStart),
        part("snapshot → agent port returns", (r) => r.runEnd - r.snapEnd),
        part("engine step + step commit + next run's setup", (r, n) => n.runStart - r.runEnd),
        part("prepare + spawn → script start", (_r, n) => n.start - n.runStart),
      ],
      gapP50: percentile(gaps, 50),
      gapP99: percentile(gaps, 99),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
