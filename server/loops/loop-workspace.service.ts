// What the operator sees and does with a loop's git workspace: one
// iteration's code diff, the patch against the baseline, and roll back to an
// iteration (a new commit on the loop branch; history is never rewritten).
import { GitError } from "../agents/git/git-cli";
import { shortLoopId } from "../agents/git/git-workspace";
import { scrubSecrets } from "../agents/redact";
import { appendEvents } from "../db/events.repo";
import { iterationCodeDiff, iterationSnapshotSha } from "../db/iterations.repo";
import { loopById } from "../db/loops.repo";
import type { Database } from "../db/client";
import { conflict, invalidInput, notFound } from "../errors";
import { notifyEventsWritten } from "../events/event-wakeups";
import { isTerminal } from "./control-rules";
import { requestControl } from "./loop-controls.service";
import { actorName, type ActingAs, type LoopServices } from "./loop-services";
import { gitWorkspaceFor, loopSecretValues } from "./ports-factory";
import { readEvidenceRecord } from "../agents/evidence/loop-evidence";
import { protectedEntries } from "../agents/evidence/protected-set";
import { getEnv } from "../env";
import { resolve } from "node:path";
import { evidenceSchema } from "./loop-definition";
import type { IterationWorkspace } from "./step-rows";

/** One iteration's code diff (its latest attempt), as stored: capped and redacted when it was taken. */
export async function iterationCodeDiffOf(db: Database, loopId: string, number: number) {
  const row = await iterationCodeDiff(db.prisma, loopId, number);
  if (!row) throw notFound(`Iteration ${number} of loop`, loopId);
  const ws = (row.workspace ?? null) as IterationWorkspace | null;
  return {
    number: row.number,
    attempt: row.attempt,
    sha: ws?.sha ?? null,
    diff: row.codeDiff ?? null,
    truncated: ws?.diffTruncated === true,
    error: ws?.error ?? null,
  };
}

/** The loop's work as a `.patch`: its current commit against the baseline, secrets scrubbed. */
export async function loopPatchOf(db: Database, loopId: string) {
  const loop = await loopById(db.prisma, loopId);
  if (!loop) throw notFound("Loop", loopId);
  const git = gitWorkspaceFor(loop.config);
  let patch: string;
  try {
    patch = await git.patch(loopId);
  } catch (error) {
    throw conflict(`The workspace cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const secrets = await loopSecretValues(loopId, loop.config);
  return { fileName: `ralph-${shortLoopId(loopId)}.patch`, patch: scrubSecrets(patch, secrets) };
}

/**
 * Rolls the loop's files back to the end of iteration `number`, as a new
 * commit. Only while no agent works in the folder: the loop is paused, awaits
 * an approval, or has ended, and no runtime holds it. A live loop then hears
 * about it in its next prompt (an operator nudge naming the iteration and why).
 */
export async function rollbackLoop(svc: LoopServices, loopId: string, number: number, acting: ActingAs) {
  const loop = await loopById(svc.db.prisma, loopId);
  if (!loop) throw notFound("Loop", loopId);
  const idle = loop.status === "paused" || loop.status === "awaiting_approval" || isTerminal(loop.status);
  if (!idle || loop.leaseOwner !== null) {
    throw conflict(
      `Cannot roll back: the loop is ${loop.status}; interrupt it first, a roll back changes the files its agent works in`,
    );
  }
  const sha = await iterationSnapshotSha(svc.db.prisma, loopId, number);
  if (!sha) throw invalidInput(`Iteration ${number} has no workspace snapshot to roll back to`);
  const reason = acting.reason?.trim() || null;
  const message = `ralph: roll back loop ${loopId} to iteration ${number}${reason ? ` (${reason.slice(0, 200)})` : ""}`;
  let commit: string;
  try {
    commit = await gitWorkspaceFor(loop.config).rollback(loopId, sha, message);
  } catch (error) {
    if (error instanceof GitError) throw conflict(`Cannot roll back: ${error.message}`);
    throw error;
  }
  await appendEvents(svc.db.prisma, [
    {
      loopId,
      type: "workspace_rolled_back",
      actorId: acting.actor.id,
      actor: actorName(acting.actor),
      reason: reason ?? `rolled back to iteration ${number}`,
      payload: { iteration: number, sha, commit },
    },
  ]);
  void notifyEventsWritten(svc.db);
  if (!isTerminal(loop.status)) {
    const why = reason ? ` Reason: ${reason}` : "";
    await requestControl(
      svc,
      loopId,
      {
        kind: "nudge",
        message: `The operator rolled the workspace back to the end of iteration ${number} (commit ${sha.slice(0, 10)}); the changes made after it were undone.${why} Continue from the files as they are now.`,
      },
      { actor: acting.actor, reason: reason ?? `roll back to iteration ${number}` },
    );
  }
  return { iteration: number, sha, commit };
}

/**
 * Removes an ended loop's worktree folder: an operator action, never done on
 * its own. The branch, its commits and the baseline stay, so the patch still
 * downloads and `git merge <branch>` still works.
 */
export async function removeLoopWorktree(svc: LoopServices, loopId: string, acting: ActingAs) {
  const loop = await loopById(svc.db.prisma, loopId);
  if (!loop) throw notFound("Loop", loopId);
  if (!isTerminal(loop.status)) throw conflict(`Cannot remove the worktree: the loop is ${loop.status}; end it first`);
  let removed: { dir: string; branch: string };
  try {
    removed = await gitWorkspaceFor(loop.config).removeWorktree(loopId);
  } catch (error) {
    throw conflict(`Cannot remove the worktree: ${error instanceof Error ? error.message : String(error)}`);
  }
  await appendEvents(svc.db.prisma, [
    {
      loopId,
      type: "worktree_removed",
      actorId: acting.actor.id,
      actor: actorName(acting.actor),
      reason: acting.reason?.trim() || "worktree removed",
      payload: removed,
    },
  ]);
  void notifyEventsWritten(svc.db);
  return removed;
}

/**
 * What the loop protects and why (derived from its checks on the base commit, the operator's globs, minus the
 * ones the operator removed), and each check's baseline: read from the loop's evidence record, or, before the
 * first graded run, the operator's part alone with a note.
 */
export async function loopProtectionOf(db: Database, loopId: string) {
  const loop = await loopById(db.prisma, loopId);
  if (!loop) throw notFound("Loop", loopId);
  const settings = evidenceSchema.parse((loop.config as { evidence?: unknown } | null)?.evidence ?? {});
  const record = readEvidenceRecord(resolve(getEnv().RALPH_DATA_DIR, "worktrees"), loopId);
  const entries =
    record?.protection ??
    protectedEntries({ operator: settings.protectedPaths, derived: [], removed: settings.unprotected });
  return {
    recorded: record !== null,
    deriveFromChecks: settings.deriveFromChecks,
    unprotected: settings.unprotected,
    baselineSha: record?.baselineSha ?? null,
    entries: entries.map((e) => ({ glob: e.glob, kind: e.kind, why: e.why })),
    baselines: Object.entries(record?.baselines ?? {}).map(([check, b]) => {
      const outcomes = Object.values(b.tests ?? {});
      return {
        check,
        perTest: b.tests !== null,
        targets: outcomes.filter((o) => o === "failed" || o === "errored").length,
        kept: outcomes.filter((o) => o === "passed").length,
        ran: b.counts.passed + b.counts.failed + b.counts.errored,
        skipped: b.counts.skipped,
        note: b.unusable ?? b.exitCodeOnly ?? null,
      };
    }),
  };
}
