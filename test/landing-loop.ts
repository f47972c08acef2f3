// A loop whose branch is made by hand, as its iterations would have left it (for tests of the
// queue itself: routers, crash tests), on a repository made with makeRepo.
import { join } from "node:path";
import { loopBranch, shortLoopId } from "../server/agents/git/git-workspace";
import type { Database } from "../server/db/client";
import { systemDeps } from "../server/jobs/system-deps";
import { createLoop } from "../server/loops/loop-create.service";
import { asOperator } from "./runtime-harness";
import { sh } from "./landing-fixtures";

export const queueServices = (db: Database) => ({
  db,
  dispatcher: { dispatch: () => undefined, dispatchAt: () => undefined },
  engine: systemDeps,
});

/** A draft loop on `repo` checking `check`, with its `ralph/<id>` branch worktree at `wt` on main. */
export async function loopWithBranch(db: Database, repo: string, wt: string, check: string[]) {
  const { id } = await createLoop(
    queueServices(db),
    {
      goal: "Land me",
      agentKind: "command",
      definition: {
        workspace: repo,
        agent: { kind: "command", argv: ["true"] },
        scorers: [{ kind: "command-check", name: "tests", argv: check, timeoutSeconds: 60 }],
      },
      engineConfig: { stop: { maxIterations: 1 } },
      start: false,
    },
    asOperator(),
  );
  sh(repo, "worktree", "add", "-q", "-b", loopBranch(id), wt, "main");
  sh(repo, "update-ref", `refs/ralph/${shortLoopId(id)}/baseline`, "main");
  return { id, wt: join(wt) };
}
