/**
 * What a loop's new worktree needs before iteration 1, beyond the committed
 * files: the `.worktreeinclude` entries from the user's checkout, then the
 * loop's setup command (`npm ci`), run in the sandbox like the agent. Done
 * once per loop: a record in the worktrees folder (under the data directory,
 * out of the agent's reach) says it is ready, so a resumed loop does not run
 * it again. On any failure the worktree is put back to its commit (nothing
 * half-installed stays) and the error names the cause; the user's checkout
 * is only ever read.
 */
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDeps } from "../deps";
import { workingDir } from "../process-env";
import { runOneShot } from "../sandbox/isolated-process";
import type { WorkspaceSetupConfig } from "../workspace-setup.schema";
import { git } from "./git-cli";
import { shortLoopId, workingTreeChanges, type PreparedWorkspace } from "./git-workspace";
import { bringIncludes, resolveWorktreeIncludes, WorkspaceEnvironmentError } from "./worktree-include";
import {
  environmentRecordPath,
  readEnvironmentRecord,
  setupOutputsPath,
  type EnvironmentRecord,
  type SetupRun,
} from "./workspace-environment-record";
import { captureSetupOutputs } from "./setup-outputs";
import { initSubmodules } from "./worktree-submodules";

export { WorkspaceEnvironmentError };
export { environmentRecordPath, readEnvironmentRecord, type EnvironmentRecord };

/** The most setup output kept in its log. */
const LOG_CAP_BYTES = 2_000_000;
const TAIL_LINES = 20;

export const setupLogPath = (stateDir: string, loopId: string) => join(stateDir, `${shortLoopId(loopId)}.setup.log`);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs the setup command in the workspace; throws a WorkspaceEnvironmentError saying why it failed. */
async function runSetup(opts: {
  setup: WorkspaceSetupConfig;
  ws: PreparedWorkspace;
  loopId: string;
  deps: AgentDeps;
  logPath: string;
  signal?: AbortSignal;
}): Promise<SetupRun> {
  const { setup, ws } = opts;
  const cwd = workingDir(ws.dir, setup.cwd);
  writeFileSync(opts.logPath, `$ ${setup.argv.join(" ")}\n`);
  let logged = 0;
  const tail: string[] = [];
  const { outcome } = await runOneShot(
    {
      config: setup,
      deps: opts.deps,
      loopId: opts.loopId,
      workspace: ws.dir,
      cwd,
      argv: setup.argv,
      extraEnv: { RALPH_LOOP_ID: opts.loopId, RALPH_WORKSPACE: ws.dir },
    },
    {
      maxOutputBytes: 64 * 1024,
      ...(opts.signal ? { signal: opts.signal } : {}),
      onLine: (line) => {
        tail.push(line);
        if (tail.length > TAIL_LINES) tail.shift();
        if (logged < LOG_CAP_BYTES) {
          logged += line.length + 1;
          appendFileSync(opts.logPath, `${line}\n`);
        }
      },
    },
  );
  if (outcome.stderrTail) appendFileSync(opts.logPath, `--- stderr (tail) ---\n${outcome.stderrTail}\n`);
  const run = { argv: setup.argv, exitCode: outcome.exitCode, durationMs: outcome.durationMs, logPath: opts.logPath };
  const said = [...tail, ...outcome.stderrTail.split("\n")]
    .filter((l) => l.trim() !== "")
    .slice(-6)
    .join(" | ")
    .slice(-800);
  const cmd = `"${setup.argv.join(" ")}"`;
  const why = outcome.aborted
    ? "was stopped"
    : outcome.timedOut
      ? `did not finish within ${setup.timeoutSeconds} s and was killed`
      : outcome.spawnError !== null
        ? `could not start: ${outcome.spawnError}`
        : outcome.lost !== null
          ? `was cut short: ${outcome.lost}`
          : outcome.exitCode !== 0
            ? `exited with ${outcome.exitCode ?? outcome.exitSignal} after ${seconds(outcome.durationMs)}`
            : null;
  if (why) {
    const full = /ENOSPC|No space left on device/i.test(said) ? " (the disk is full)" : "";
    throw new WorkspaceEnvironmentError(
      `the setup command ${cmd} ${why}${full}${said ? `: ${said}` : ""} (log: ${opts.logPath})`,
    );
  }
  return run;
}

async function headIs(dir: string, sha: string): Promise<boolean> {
  const head = await git(dir, ["rev-parse", "HEAD"], { allowFail: true });
  return head.trim() === sha;
}

/** Back to the worktree's commit: what the include copy or the setup left is removed. */
async function resetWorktree(dir: string): Promise<void> {
  await git(dir, ["reset", "-q", "--hard", "HEAD"]);
  await git(dir, ["clean", "-q", "-f", "-f", "-d", "-x"]);
}

/**
 * Brings the loop's worktree to what iteration 1 needs, once. `source` is
 * the folder the workspace was made from (the user's checkout); `stateDir`
 * keeps the record and the setup log. Throws a WorkspaceEnvironmentError.
 */
export async function prepareEnvironment(opts: {
  loopId: string;
  ws: PreparedWorkspace;
  source: string;
  setup: WorkspaceSetupConfig | null;
  deps: AgentDeps;
  stateDir: string;
  signal?: AbortSignal;
}): Promise<EnvironmentRecord> {
  const { ws, loopId } = opts;
  const known = readEnvironmentRecord(opts.stateDir, loopId);
  if (known?.status === "ready") return known;
  mkdirSync(opts.stateDir, { recursive: true });
  const setup = opts.setup && opts.setup.argv.length > 0 ? opts.setup : null;
  // Only a worktree is the loop's own to reset: in place and init are the user's folder.
  const own = ws.mode === "worktree";
  let included: string[] = [];
  let submodules: string[] = [];
  let includedFrom: string | null = null;
  let setupOutputs: string[] = [];
  try {
    if (own) {
      const top = (await git(opts.source, ["rev-parse", "--show-toplevel"])).trim();
      submodules = await initSubmodules(top, ws.dir);
      included = await resolveWorktreeIncludes(top);
      // A partial copy a crashed attempt left is replaced entry by entry.
      await bringIncludes(top, ws.dir, included);
      includedFrom = top;
    }
    const ran = setup
      ? await runSetup({
          setup,
          ws,
          loopId,
          deps: opts.deps,
          logPath: setupLogPath(opts.stateDir, loopId),
          ...(opts.signal ? { signal: opts.signal } : {}),
        })
      : null;
    if (own && ran) {
      // What the setup left that git would commit would read as iteration 1's work.
      const { clean } = await workingTreeChanges(ws.dir);
      if (!clean) {
        const out = await git(ws.dir, ["status", "--porcelain", "--untracked-files=normal"]);
        const files = out
          .split("\n")
          .filter((l) => l.trim() !== "")
          .slice(0, 5)
          .map((l) => l.slice(3));
        throw new WorkspaceEnvironmentError(
          `the setup command "${setup!.argv.join(" ")}" changed files git tracks or does not ignore (${files.join(", ")}); ` +
            "they would count as the agent's change: add them to .gitignore, or use a command that leaves them alone (npm ci, not npm install)",
        );
      }
      // The agent has not run yet: what the setup installed is copied now, for the grading trees.
      setupOutputs = await captureSetupOutputs(ws.dir, setupOutputsPath(opts.stateDir, loopId), included);
    }
    const record: EnvironmentRecord = {
      status: "ready",
      included,
      ...(includedFrom !== null && included.length > 0 ? { includedFrom } : {}),
      ...(submodules.length > 0 ? { submodules } : {}),
      ...(setupOutputs.length > 0 ? { setupOutputs } : {}),
      setup: ran,
      at: new Date().toISOString(),
    };
    writeFileSync(environmentRecordPath(opts.stateDir, loopId), `${JSON.stringify(record)}\n`);
    return record;
  } catch (error) {
    // Reset only a worktree no iteration has committed to: nothing of the agent's can be lost.
    if (own && (await headIs(ws.dir, ws.baselineSha))) await resetWorktree(ws.dir).catch(() => undefined);
    if (error instanceof WorkspaceEnvironmentError) throw error;
    throw new WorkspaceEnvironmentError(
      `preparing the worktree failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

export const hasEnvironmentRecord = (stateDir: string, loopId: string) =>
  existsSync(environmentRecordPath(stateDir, loopId));
