import type { VerifierPort } from "../engine";
import { abortedError, AgentError } from "./agent-error";
import { tamperNote } from "./git/tamper-note";
import type { AgentDeps } from "./deps";
import { workingDir } from "./process-env";
import { scrubSecrets } from "./redact";
import { runOneShot } from "./sandbox/isolated-process";
import type { CommandVerifierConfig } from "./verifier.schema";

const lastLines = (text: string, max = 500) => {
  const trimmed = text.trim();
  return trimmed.length > max ? `…${trimmed.slice(-max)}` : trimmed;
};

/**
 * Exit 0 means complete. VerifyRequest carries no loop id, so the loop whose
 * workspace the command runs in is fixed when the verifier is created.
 */
export function createCommandVerifier(config: CommandVerifierConfig, deps: AgentDeps, loopId: string): VerifierPort {
  return {
    async verify(request) {
      // Graded like a check when the loop has graded evidence: a clean tree of the iteration's
      // snapshot with protected paths reset, outside the agent's reach; tampering never completes.
      const graded = deps.git && deps.evidence ? await deps.evidence.grade(loopId, "_verifier") : null;
      const workspace = graded?.dir ?? (await deps.workspaceDir(loopId));
      // Before anything runs: an agent that edited the tests must not complete on that evidence.
      const guard = deps.git && !graded ? await deps.git.protectEvidence(loopId) : null;
      if (guard && guard.tampered.length > 0 && guard.policy === "fail")
        return { complete: false, reason: tamperNote(guard) };
      const cwd = workingDir(workspace, config.cwd);
      const { outcome, secretValues } = await runOneShot(
        {
          config,
          deps,
          // A grading run gets a HOME apart from the agent's (which the agent could plant things in).
          loopId: graded ? `${loopId}.grading` : loopId,
          workspace,
          cwd,
          argv: config.argv,
          extraEnv: { RALPH_LOOP_ID: loopId, RALPH_ITERATION: String(request.iteration), RALPH_WORKSPACE: workspace },
        },
        {
          stdin: JSON.stringify({
            task: request.task,
            answer: request.answer,
            iteration: request.iteration,
            previousResults: request.previousResults,
          }),
          maxOutputBytes: config.maxOutputBytes,
          signal: request.signal,
        },
      );
      // What it prints is stored as the verdict's reason: no secret of this loop may be in it.
      const scrub = (text: string) => scrubSecrets(text, deps.redactor?.values(secretValues) ?? secretValues);
      if (outcome.aborted) throw abortedError("The verifier");
      if (outcome.lost !== null) {
        throw new AgentError("exit_nonzero", `The verifier was cut short: ${outcome.lost}`, { retryable: true });
      }
      if (outcome.spawnError !== null) {
        throw new AgentError(
          "spawn_failed",
          `The verifier could not start "${config.argv[0]}": ${outcome.spawnError}`,
          { retryable: false },
        );
      }
      if (outcome.timedOut)
        return { complete: false, reason: `the verifier timed out after ${config.timeoutSeconds}s` };
      const said = scrub(lastLines(outcome.stdout) || lastLines(outcome.stderrTail));
      const exit = outcome.exitCode === null ? `killed by ${outcome.exitSignal}` : `exit ${outcome.exitCode}`;
      const reason = said ? `${exit}: ${said}` : exit;
      if (guard && guard.tampered.length > 0) return { complete: false, reason: `${tamperNote(guard)}. ${reason}` };
      if (graded && graded.tampering.length > 0)
        return {
          complete: false,
          reason: `evidence_tampered: ${graded.tampering.map((t) => `${t.what} (${t.how})`).join("; ")}; verified on the clean tree: ${reason}`,
        };
      return { complete: outcome.exitCode === 0, reason };
    },
  };
}
