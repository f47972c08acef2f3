/**
 * The command agent's side of its git workspace: the folder (a slow first
 * preparation is announced in the live output), and the iteration's snapshot
 * after the agent process ends.
 */
import type { AgentRunRequest, WorkspaceResult } from "../engine";
import type { AgentDeps } from "./deps";

/** The iteration's commit and diffstat, or the workspace error that kept it from being taken. */
export async function takeSnapshot(
  deps: AgentDeps,
  loopId: string,
  iteration: number,
): Promise<WorkspaceResult | undefined> {
  if (!deps.git) return undefined;
  try {
    const taken = await deps.git.snapshot(loopId, iteration);
    return {
      snapshot: taken.snapshot,
      // Redacted by the executor; stored apart from the row's summary and read on demand.
      diff: taken.diff,
      tampered: taken.tampered.length > 0 ? { files: taken.tampered, policy: taken.policy } : null,
    };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** Past this, preparing the workspace (a first worktree of a large repository) is a step the live view shows. */
const SLOW_WORKSPACE_MS = 300;

/** The loop's workspace; a slow first preparation is announced in the live output, and how long it took. */
export async function preparedWorkspace(deps: AgentDeps, request: AgentRunRequest): Promise<string> {
  const say = (text: string) => {
    try {
      request.onProgress({ kind: "output", text });
    } catch {
      // the live view is best effort
    }
  };
  const started = performance.now();
  let announced = false;
  const timer = setTimeout(() => {
    announced = true;
    say("[ralph] preparing the loop's workspace (git worktree)…");
  }, SLOW_WORKSPACE_MS);
  try {
    return await deps.workspaceDir(request.loopId);
  } finally {
    clearTimeout(timer);
    if (announced) say(`[ralph] workspace ready after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}
