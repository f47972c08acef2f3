/**
 * The command agent: any CLI as a fresh process per iteration (the original
 * Ralph pattern). The preset decides how stdout is read; the process rules
 * (own group, no shell, allowlisted env, timeout, output cap) are the same.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { AgentPort, AgentProgressEvent, AgentRunRequest, AgentRunResult } from "../engine/ports";
import { AgentError, abortedError } from "./agent-error";
import { detectClaim } from "./claim";
import { claudeCodePreset } from "./claude-code.preset";
import { codexPreset } from "./codex.preset";
import type { CommandAgentConfig, CommandPreset } from "./command.schema";
import type { AgentDeps } from "./deps";
import { genericPreset } from "./generic.preset";
import { defaultPriceLookup, priceUsage } from "./pricing";
import { buildChildEnv, workingDir } from "./process-env";
import { runProcess, type ProcessOutcome } from "./process-group";
import { scrubDeep, scrubSecrets } from "./redact";
import type { CommandPresetSpec, ParsedRun } from "./stream-parser";

export const commandPresetSpecs: Record<CommandPreset, CommandPresetSpec> = {
  generic: genericPreset,
  "claude-code": claudeCodePreset,
  codex: codexPreset,
};

/** Past this many lines a flood must not become an event flood: heartbeats are thinned. */
const FREE_HEARTBEATS = 1000;
const THINNED_HEARTBEAT_MS = 100;

function progressEmitter(onProgress: AgentRunRequest["onProgress"]) {
  let lines = 0;
  let lastBeat = 0;
  return (event: AgentProgressEvent) => {
    if (event.kind === "heartbeat" && ++lines > FREE_HEARTBEATS) {
      const now = performance.now();
      if (now - lastBeat < THINNED_HEARTBEAT_MS) return;
      lastBeat = now;
    }
    try {
      onProgress(event);
    } catch {
      // a failing listener must not break the agent's output stream
    }
  };
}

function buildArgv(config: CommandAgentConfig, prompt: string, promptFile: string) {
  const base = config.argv ?? commandPresetSpecs[config.preset].argv;
  if (base.length === 0) throw new AgentError("config", "The generic command preset needs an argv", { retryable: false });
  let sawPrompt = false;
  let usesFile = config.promptVia === "file";
  const argv = [...base, ...config.extraArgs].map((arg) => {
    if (arg.includes("{prompt}")) sawPrompt = true;
    if (arg.includes("{promptFile}")) usesFile = true;
    // File first: the prompt text itself may contain "{promptFile}".
    return arg.replaceAll("{promptFile}", promptFile).replaceAll("{prompt}", prompt);
  });
  if (config.promptVia === "argument" && !sawPrompt) argv.push(prompt);
  return { argv, usesFile };
}

const tail = (text: string, n: number) => (text.length > n ? `…${text.slice(-n)}` : text);

function failure(config: CommandAgentConfig, outcome: ProcessOutcome, parsed: ParsedRun | null, secrets: string[]): AgentError | null {
  const stderrTail = scrubSecrets(tail(outcome.stderrTail, 2000), secrets);
  const details = {
    exitCode: outcome.exitCode,
    signal: outcome.exitSignal,
    killedWith: outcome.killedWith,
    stderrTail,
    stdoutBytes: outcome.stdoutBytes,
    durationMs: Math.round(outcome.durationMs),
  };
  const name = config.argv?.[0] ?? commandPresetSpecs[config.preset].argv[0] ?? "command";
  if (outcome.timedOut) {
    return new AgentError("timeout", `${name} timed out after ${config.timeoutSeconds}s; its process group was killed (${outcome.killedWith})`, {
      retryable: true,
      details,
    });
  }
  if (outcome.exitCode !== 0) {
    const how = outcome.exitCode === null ? `was killed by ${outcome.exitSignal}` : `exited with code ${outcome.exitCode}`;
    const hint = stderrTail.trim() ? `: ${tail(stderrTail.trim(), 300)}` : "";
    return new AgentError("exit_nonzero", `${name} ${how}${hint}`, { retryable: true, details });
  }
  if (parsed?.error) {
    return new AgentError("agent_reported_error", scrubSecrets(parsed.error, secrets), { retryable: true, details });
  }
  return null;
}

export function createCommandAgent(config: CommandAgentConfig, deps: AgentDeps): AgentPort {
  const preset = commandPresetSpecs[config.preset];
  const pricing = deps.pricing ?? defaultPriceLookup;

  return {
    async run(request: AgentRunRequest): Promise<AgentRunResult> {
      if (request.signal.aborted) throw abortedError("The agent");
      const workspace = deps.workspaceDir(request.loopId);
      const cwd = workingDir(workspace, config.cwd);
      const promptFile = resolve(workspace, config.promptFile);
      const { argv, usesFile } = buildArgv(config, request.input, promptFile);
      if (usesFile) {
        mkdirSync(dirname(promptFile), { recursive: true });
        writeFileSync(promptFile, request.input);
      }
      const pendingEnv = buildChildEnv(config, deps.secrets, {
        RALPH_LOOP_ID: request.loopId,
        RALPH_ITERATION: String(request.iteration),
        RALPH_ATTEMPT: String(request.attempt),
        RALPH_AGENT_ID: request.agentId,
        RALPH_WORKSPACE: workspace,
        RALPH_PROMPT_FILE: promptFile,
      });
      // Only wait when secrets had to be resolved; the common case stays synchronous.
      const { env, secretValues } = pendingEnv instanceof Promise ? await pendingEnv : pendingEnv;

      const parser = preset.parser(config.maxOutputBytes);
      const emit = progressEmitter(request.onProgress);
      const outcome = await runProcess({
        argv,
        cwd,
        env,
        stdin: config.promptVia === "stdin" ? request.input : undefined,
        timeoutMs: config.timeoutSeconds * 1000,
        killGraceMs: config.killGraceMs,
        maxOutputBytes: config.maxOutputBytes,
        signal: request.signal,
        onLine: (line) => parser.line(line, emit),
      });

      if (outcome.aborted) throw abortedError("The agent");
      if (outcome.spawnError !== null) {
        throw new AgentError("spawn_failed", `Could not start "${argv[0]}": ${outcome.spawnError}`, { retryable: false });
      }
      const parsed = outcome.timedOut ? null : parser.finish(outcome.stdout);
      const error = failure(config, outcome, parsed, secretValues);
      if (error) throw error;
      const run = parsed!;

      let output = scrubSecrets(run.output, secretValues);
      let truncated = outcome.truncated;
      if (output.length > config.maxOutputBytes) {
        output = output.slice(0, config.maxOutputBytes);
        truncated = true;
      }
      const usage = run.usage ?? { input: 0, output: 0, cache: 0 };
      const warnings = [...run.warnings];
      let costUsd = run.costUsd ?? 0;
      if (run.costUsd === null && config.model) {
        const priced = priceUsage(pricing, config.model, usage, { cacheWrite: run.cacheWriteTokens });
        costUsd = priced.costUsd;
        if (priced.warning) warnings.push(priced.warning);
      }
      if (run.usage === null) warnings.push("The agent reported no token usage");

      const meta = {
        kind: "command",
        preset: config.preset,
        exitCode: outcome.exitCode,
        stderrTail: tail(outcome.stderrTail, 2000),
        stdoutBytes: outcome.stdoutBytes,
        durationMs: Math.round(outcome.durationMs),
        costSource: run.costUsd !== null ? "agent" : config.model ? "pricing" : "none",
        ...run.meta,
        warnings,
      };
      return {
        output,
        claim: detectClaim(output, run.claim),
        usage,
        costUsd,
        toolCalls: run.toolCalls,
        truncated,
        progress: scrubDeep(run.progress, secretValues),
        // Parsed meta can quote the agent (commands it ran, errors it saw), so it is scrubbed too.
        meta: scrubDeep(meta, secretValues),
      };
    },
  };
}
