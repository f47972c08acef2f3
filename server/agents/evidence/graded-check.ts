/**
 * The command check as a grader: it never runs in the agent's workspace. The
 * baseline run (once per loop, on the base commit) gives the inventory; each
 * iteration runs in a clean tree of its snapshot with protected paths reset,
 * with a HOME of its own (the agent's HOME is the agent's to plant things
 * in), after the agent's process group is gone. Tampering never changes the
 * verdict on the clean tree, and an iteration that tampered cannot complete.
 */
import type { ScoreResult, ScorerPort, TestEvidence, TestGrading } from "../../engine";
import { runCommandCheck, type CheckRunFacts } from "../command-check.scorer";
import type { AgentDeps } from "../deps";
import type { CommandCheckScorerConfig } from "../scorer.schema";
import { HeldOutMissingError } from "./held-out";
import { baselineProblem, gradeAgainstBaseline, type BaselineInventory } from "./inventory-grade";

/** The check's HOME: a loop's own, apart from the agent's. */
export const gradingHomeKey = (loopId: string) => `${loopId}.grading`;

const countsOf = (r: ScoreResult) => ({
  passed: r.tests?.passed ?? 0,
  failed: r.tests?.failed ?? 0,
  errored: r.tests?.errored ?? 0,
  skipped: r.tests?.skipped ?? 0,
  exitCode: r.tests?.exitCode ?? null,
});

const freshFacts = (): CheckRunFacts => ({ inventory: null, noInventory: null, timedOut: false, complete: false });

async function runIn(
  config: CommandCheckScorerConfig,
  deps: AgentDeps,
  loopId: string,
  dir: string,
  iteration: number,
  signal: AbortSignal,
) {
  const facts = freshFacts();
  const result = await runCommandCheck(
    config,
    deps,
    {
      loopId: gradingHomeKey(loopId),
      workspace: dir,
      signal,
      extraEnv: { RALPH_LOOP_ID: loopId, RALPH_ITERATION: String(iteration), RALPH_WORKSPACE: dir },
    },
    facts,
  );
  return { result, facts };
}

/** The baseline inventory of `config`'s check, run once on the base commit and kept with the loop's record. */
export async function baselineInventory(
  config: CommandCheckScorerConfig,
  deps: AgentDeps,
  loopId: string,
  signal: AbortSignal,
): Promise<BaselineInventory> {
  const evidence = deps.evidence!;
  const known = await evidence.baseline(loopId, config.name);
  if (known) return known;
  const dir = await evidence.baselineTree(loopId, config.name, config.heldOut);
  const { result, facts } = await runIn(config, deps, loopId, dir, 0, signal);
  const counts = countsOf(result);
  const unusable = baselineProblem(counts, facts.timedOut, facts.complete);
  const inventory: BaselineInventory = {
    tests: facts.inventory,
    counts,
    ...(facts.noInventory ? { exitCodeOnly: facts.noInventory } : {}),
    ...(unusable ? { unusable: `${unusable} (${result.reason ?? ""})` } : {}),
  };
  await evidence.saveBaseline(loopId, config.name, inventory);
  return inventory;
}

export function createGradedCheckScorer(config: CommandCheckScorerConfig, deps: AgentDeps): ScorerPort {
  return {
    name: config.name,
    async score(ctx) {
      const evidence = deps.evidence!;
      const entries = await evidence.protection(ctx.loopId);
      // The agent's own workspace gets the protected files back too (restore policy), so the
      // next agent starts from the real tests; grading does not depend on it.
      await evidence.exclusive(ctx.loopId, () =>
        deps.git!.protectEvidence(
          ctx.loopId,
          entries.map((e) => e.glob),
        ),
      );
      let baseline: BaselineInventory;
      let graded: Awaited<ReturnType<typeof evidence.grade>>;
      try {
        baseline = await baselineInventory(config, deps, ctx.loopId, ctx.signal);
        graded = await evidence.grade(ctx.loopId, config.name, config.heldOut);
      } catch (error) {
        if (!(error instanceof HeldOutMissingError)) throw error;
        const lines = [{ ok: false, text: error.message }];
        const tests: TestEvidence = {
          ...{ passed: 0, failed: 0, skipped: 0, errored: 0, failures: [], moreFailures: 0, format: "exit-code" },
          ...{ runner: null, counted: false, exitCode: null, warnings: [error.message] },
          grading: { sha: "", lines, tampering: [], notGraded: [], mode: "exit-code" },
        };
        return { score: 0, reason: `held-out: ${error.message}`, tests };
      }
      const { result, facts } = await runIn(config, deps, ctx.loopId, graded.dir, ctx.iteration, ctx.signal);
      const grade = baseline.unusable
        ? { lines: [{ ok: false, text: `baseline unusable: ${baseline.unusable}` }], ok: false, shrank: true }
        : gradeAgainstBaseline(baseline, { tests: baseline.tests ? facts.inventory : null, counts: countsOf(result) });
      const tampered = graded.tampering.length > 0;
      const lines = [
        ...grade.lines,
        ...(tampered ? [{ ok: false, text: `tampering: ${graded.tampering.map((t) => t.what).join(", ")}` }] : []),
      ];
      const tamperedIterations = tampered ? await evidence.noteTampering(ctx.loopId, ctx.iteration) : 0;
      const grading: TestGrading = {
        ...(tampered ? { tamperedIterations } : {}),
        sha: graded.sha,
        lines,
        tampering: graded.tampering,
        notGraded: graded.notGraded,
        mode: baseline.tests && facts.inventory ? "per-test" : "exit-code",
      };
      const ok = grade.ok && !tampered;
      const score = ok ? result.score : tampered || grade.shrank ? 0 : Math.min(result.score, 0.99);
      const verdictText = lines.map((l) => l.text).join("; ");
      const warnings = [
        ...(tampered
          ? [
              `Evidence tampering was found and undone for grading: ${graded.tampering.map((t) => `${t.what} (${t.how})`).join("; ")}. Protected tests and runner settings may be read but not changed, and code must not detect the test run.`,
            ]
          : []),
        ...(result.tests?.warnings ?? []),
      ];
      const tests: TestEvidence | undefined = result.tests ? { ...result.tests, warnings, grading } : undefined;
      return {
        ...result,
        score,
        reason:
          `${tampered ? "evidence_tampered: " : ""}${config.heldOut ? "held-out: " : ""}${verdictText} — ${result.reason ?? ""}`.trim(),
        ...(tests ? { tests } : {}),
      };
    },
  };
}
