import type { VerifierPort } from "../engine/ports";
import { abortedError, AgentError } from "./agent-error";
import type { AgentDeps } from "./deps";
import { buildChildEnv, workingDir } from "./process-env";
import { runProcess } from "./process-group";
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
      const workspace = deps.workspaceDir(loopId);
      const cwd = workingDir(workspace, config.cwd);
      const pending = buildChildEnv(config, deps.secrets, { RALPH_LOOP_ID: loopId, RALPH_ITERATION: String(request.iteration), RALPH_WORKSPACE: workspace });
      const { env } = pending instanceof Promise ? await pending : pending;
      const outcome = await runProcess({
        argv: config.argv,
        cwd,
        env,
        stdin: JSON.stringify({ task: request.task, answer: request.answer, iteration: request.iteration, previousResults: request.previousResults }),
        timeoutMs: config.timeoutSeconds * 1000,
        killGraceMs: config.killGraceMs,
        maxOutputBytes: config.maxOutputBytes,
        signal: request.signal,
      });
      if (outcome.aborted) throw abortedError("The verifier");
      if (outcome.spawnError !== null) {
        throw new AgentError("spawn_failed", `The verifier could not start "${config.argv[0]}": ${outcome.spawnError}`, { retryable: false });
      }
      if (outcome.timedOut) return { complete: false, reason: `the verifier timed out after ${config.timeoutSeconds}s` };
      const said = lastLines(outcome.stdout) || lastLines(outcome.stderrTail);
      const exit = outcome.exitCode === null ? `killed by ${outcome.exitSignal}` : `exit ${outcome.exitCode}`;
      return { complete: outcome.exitCode === 0, reason: said ? `${exit}: ${said}` : exit };
    },
  };
}
