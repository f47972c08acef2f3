// The loop's evidence, re-run on what would land (docs/merge-queue.md): the
// rebased (or merged) commit in the queue's landing worktree, graded exactly
// as the loop's iterations are (server/agents/evidence): a clean tree of that
// commit with protected paths reset, held-out files brought in, against the
// baseline inventory of the target's current head (so tests the target has
// must keep passing, and the loop's targets must pass on top of it). Its
// command checks and a command verifier are the evidence; model judges are
// not re-run (they grade the agent's answer, not the code) and say so.
import { mkdirSync, rmSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { ScoreResult } from "../engine";
import { createScorers, createVerifier, parseScorerConfigs } from "../agents/registry";
import type { AgentDeps } from "../agents/deps";
import { git } from "../agents/git/git-cli";
import { baselineRef } from "../agents/git/git-workspace";
import type { LoopGitWorkspace } from "../agents/git/loop-workspace";
import { evidencePaths } from "../agents/evidence/loop-evidence";
import { prepareEnvironment } from "../agents/git/workspace-environment";
import { getEnv } from "../env";
import { setupOf } from "./loop-environment";
import { loopEvidenceFor, loopSecretResolver } from "./ports-factory";

export interface CheckVerdict {
  name: string;
  ok: boolean;
  score: number;
  reason: string;
  failing: string[];
}

export interface EvidenceRun {
  ok: boolean;
  checks: CheckVerdict[];
  /** What was not re-run, and why. */
  notes: string[];
  durationMs: number;
}

export class LandingCheckTimeoutError extends Error {
  constructor(readonly seconds: number) {
    super(`the evidence re-run did not finish within ${seconds}s`);
    this.name = "LandingCheckTimeoutError";
  }
}

type StoredConfig = {
  scorers?: unknown[];
  verifier?: { kind?: string };
  loop?: { stop?: { scoreThreshold?: number } };
};

/** The landing worktree as the graders' git port: base = the target head, graded commit = the result. */
function landingGitPort(dir: string, folder: string, baseSha: string, resultSha: string): LoopGitWorkspace {
  const unsupported = () => Promise.reject(new Error("not available while landing"));
  return {
    dir: async () => folder,
    prepared: async () => ({ dir, branch: null, baselineSha: baseSha, mode: "worktree" }),
    snapshot: unsupported,
    rollback: unsupported,
    patch: unsupported,
    removeWorktree: unsupported,
    protectEvidence: async () => ({ tampered: [], policy: "restore", restored: false }),
    currentSnapshot: async () => resultSha,
    gitTampering: () => [],
  };
}

const failingOf = (r: ScoreResult) => [
  ...(r.tests?.failures ?? []).map((f) => f.name),
  ...(r.tests?.grading?.lines ?? []).filter((l) => !l.ok).map((l) => l.text),
];

/**
 * Re-runs the loop's command checks and command verifier on `resultSha`
 * checked out in `dir` (the landing worktree). `runId` names this run's
 * record, grading trees and HOME; everything it made is removed afterwards.
 */
export async function rerunLoopEvidence(opts: {
  runId: string;
  loop: { id: string; goal: string; config: unknown };
  /** The loop's workspace (a folder of the repository: a monorepo package runs in the same folder). */
  loopWorkspace: string;
  common: string;
  dir: string;
  baseSha: string;
  resultSha: string;
  timeoutMs: number;
  deps?: Partial<AgentDeps>;
}): Promise<EvidenceRun> {
  const started = Date.now();
  const config = (opts.loop.config ?? {}) as StoredConfig;
  const top = (await git(opts.loopWorkspace, ["rev-parse", "--show-toplevel"])).trim();
  const folder = resolve(opts.dir, relative(top, opts.loopWorkspace));
  const port = landingGitPort(opts.dir, folder, opts.baseSha, opts.resultSha);
  // Graded against the target's head, never a fork's source base (strip forkStart).
  const evidence = loopEvidenceFor({ ...(config as object), forkStart: undefined }, port);
  const worktreesDir = resolve(getEnv().RALPH_DATA_DIR, "worktrees");
  // The grader checks the run's baseline ref against its record: it must name the target head.
  const ref = baselineRef(opts.runId);
  await git(opts.common, ["update-ref", ref, opts.baseSha]);
  const deps: AgentDeps = {
    workspaceDir: () => folder,
    git: port,
    evidence,
    secrets: loopSecretResolver(opts.loop.id),
    allowHosts: getEnv().RALPH_AGENT_ALLOW_HOSTS,
    ...opts.deps,
  };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  const notes: string[] = [];
  try {
    mkdirSync(worktreesDir, { recursive: true });
    await prepareEnvironment({
      loopId: opts.runId,
      ws: { dir: opts.dir, branch: null, baselineSha: opts.baseSha, mode: "worktree" },
      source: opts.loopWorkspace,
      setup: setupOf(config),
      deps,
      stateDir: worktreesDir,
      signal: controller.signal,
    });
    const checkConfigs = parseScorerConfigs(config.scorers ?? []).filter((c) => c.kind === "command-check");
    const skipped = parseScorerConfigs(config.scorers ?? []).filter((c) => c.kind !== "command-check");
    if (skipped.length > 0)
      notes.push(`not re-run (they grade the answer, not the code): ${skipped.map((s) => s.kind).join(", ")}`);
    const threshold = Math.min(1, config.loop?.stop?.scoreThreshold || 1);
    const checks: CheckVerdict[] = [];
    const ctx = {
      loopId: opts.runId,
      iteration: 1,
      goal: opts.loop.goal,
      input: "",
      output: "",
      claim: { done: true },
      toolCalls: [],
      signal: controller.signal,
    };
    for (const scorer of createScorers(checkConfigs, deps)) {
      const r = await scorer.score(ctx);
      const ok = r.score >= threshold;
      checks.push({ name: scorer.name, ok, score: r.score, reason: r.reason ?? "", failing: ok ? [] : failingOf(r) });
    }
    if (config.verifier?.kind === "command") {
      const verifier = createVerifier(config.verifier, deps, opts.runId)!;
      const verdict = await verifier.verify({
        task: opts.loop.goal,
        answer: "",
        iteration: 1,
        previousResults: [],
        signal: controller.signal,
      });
      checks.push({
        name: "verifier",
        ok: verdict.complete,
        score: verdict.complete ? 1 : 0,
        reason: verdict.reason,
        failing: verdict.complete ? [] : [verdict.reason],
      });
    } else if (config.verifier?.kind && config.verifier.kind !== "none") {
      notes.push(`the ${config.verifier.kind} verifier is not re-run (it judges the answer, not the code)`);
    }
    if (checks.length === 0) notes.push("the loop has no command check or command verifier: nothing to re-run");
    return { ok: checks.length > 0 && checks.every((c) => c.ok), checks, notes, durationMs: Date.now() - started };
  } catch (error) {
    if (controller.signal.aborted) throw new LandingCheckTimeoutError(Math.round(opts.timeoutMs / 1000));
    throw error;
  } finally {
    clearTimeout(timer);
    await git(opts.common, ["update-ref", "-d", ref], { allowFail: true });
    const paths = evidencePaths(worktreesDir, opts.runId);
    rmSync(paths.record, { force: true });
    rmSync(paths.trees, { recursive: true, force: true });
  }
}
