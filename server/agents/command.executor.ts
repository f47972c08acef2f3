/**
 * The command agent: any CLI as a fresh process per iteration (the original
 * Ralph pattern). The preset decides how stdout is read; the process rules
 * (own group, no shell, allowlisted env, timeout, output cap) are the same.
 */
import { resolve } from "node:path";
import { limitKindOf, type AgentPort, type AgentRunRequest, type AgentRunResult } from "../engine";
import { AgentError, abortedError } from "./agent-error";
import { detectClaim } from "./claim";
import { commandPresetSpecs, presetArgv } from "./command-preset-specs";
import type { CommandAgentConfig } from "./command.schema";
import type { AgentDeps, ReportedSpend } from "./deps";
import { defaultPriceLookup, priceUsage } from "./pricing";
import { workingDir } from "./process-env";
import { runProcess, type ProcessOutcome } from "./process-group";
import { scrubDeep, scrubSecrets } from "./redact";
import { preparedWorkspace, takeSnapshot } from "./command-workspace";
import { prepareProcess } from "./sandbox/isolated-process";
import { serverIsolation } from "./sandbox/isolation";
import { writeFileInside } from "./sandbox/safe-files";
import { permissionWiringFor } from "./command-permissions";
import { outputLines, progressEmitter } from "./command-live-output";
import { priced, spendReporter } from "./spend-reporter";
import { spoolFor } from "./spend-spool";
import { modelArg, type ParsedRun } from "./stream-parser";
import { TranscriptLines } from "./transcript-lines";

export { commandPresetSpecs, presetArgv };

function buildArgv(config: CommandAgentConfig, prompt: string, promptFile: string, sandboxed: boolean) {
  const { argv: base, warnings } = presetArgv(config, sandboxed);
  if (base.length === 0)
    throw new AgentError("config", "The generic command preset needs an argv", { retryable: false });
  let sawPrompt = false;
  let usesFile = config.promptVia === "file";
  const argv = base.map((arg) => {
    if (arg.includes("{prompt}")) sawPrompt = true;
    if (arg.includes("{promptFile}")) usesFile = true;
    // File first: the prompt text itself may contain "{promptFile}".
    return arg.replaceAll("{promptFile}", promptFile).replaceAll("{prompt}", prompt);
  });
  if (config.promptVia === "argument" && !sawPrompt) argv.push(prompt);
  return { argv, usesFile, warnings, model: modelArg(argv) ?? config.model };
}

/** Claude Code's and Codex's words for a missing or rejected login. */
const NOT_LOGGED_IN = /invalid api key|please run \/login|not logged in|\b401 unauthorized\b/i;

/** The agent runs with the loop's own HOME: a login kept in ~/.claude or ~/.codex is not there. */
const LOGIN_HINT =
  ". The agent runs with the loop's own HOME, so a CLI login on the server is not seen: store ANTHROPIC_API_KEY / OPENAI_API_KEY, " +
  "or a subscription token (CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`) as a secret passed to the agent (docs/agents.md)";

const tail = (text: string, n: number) => (text.length > n ? `…${text.slice(-n)}` : text);

function failure(
  config: CommandAgentConfig,
  outcome: ProcessOutcome,
  parsed: ParsedRun | null,
  secrets: string[],
  spent: ReportedSpend | null,
): AgentError | null {
  const stderrTail = scrubSecrets(tail(outcome.stderrTail, 2000), secrets);
  // A run that failed still spent what it reported.
  const spend = spent ? { usage: spent, costUsd: spent.costUsd } : {};
  const details = {
    exitCode: outcome.exitCode,
    signal: outcome.exitSignal,
    killedWith: outcome.killedWith,
    stderrTail,
    stdoutBytes: outcome.stdoutBytes,
    durationMs: Math.round(outcome.durationMs),
  };
  const name = config.argv?.[0] ?? commandPresetSpecs[config.preset].argv[0] ?? "command";
  // The agent's own final status says it hit the provider's limit: whatever the exit code, the loop waits.
  if (parsed?.usageLimit) {
    const message = scrubSecrets(parsed.usageLimit, secrets);
    // A plan's quota and a transient rate limit are told apart (usage_limit / rate_limit kinds);
    // both carry the signal, so the loop waits for the reset (or backs off) instead of retrying now.
    const quota = limitKindOf(message) === "usage";
    return new AgentError(
      quota ? "usage_limit" : "rate_limited",
      `${name} hit the provider's ${quota ? "usage" : "rate"} limit: ${message}`,
      {
        retryable: false,
        details: {
          ...details,
          usageLimit: {
            message,
            resetAt: parsed.limitInfo?.resetAt ?? null,
            window: parsed.limitInfo?.window ?? null,
            usedPercent: parsed.limitInfo?.usedPercent ?? null,
          },
        },
        ...spend,
      },
    );
  }
  if (outcome.timedOut) {
    return new AgentError(
      "timeout",
      `${name} timed out after ${config.timeoutSeconds}s; its process group was killed (${outcome.killedWith})`,
      {
        retryable: true,
        details,
        ...spend,
      },
    );
  }
  if (parsed?.error) {
    // The CLI said why in-band (Claude Code's error result, Codex's turn.failed): that names the
    // failure kind better than its exit code does. The result kind (error_max_turns,
    // error_during_execution) goes with it.
    const subtype = typeof parsed.meta.subtype === "string" ? parsed.meta.subtype : null;
    const loggedOut = NOT_LOGGED_IN.test(parsed.error);
    const message = scrubSecrets(parsed.error, secrets) + (loggedOut ? LOGIN_HINT : "");
    return new AgentError("agent_reported_error", message, {
      // A rejected login does not heal on another attempt.
      retryable: !loggedOut,
      details: { ...details, subtype, warnings: parsed.warnings },
      ...spend,
    });
  }
  if (outcome.exitCode !== 0) {
    const how =
      outcome.exitCode === null ? `was killed by ${outcome.exitSignal}` : `exited with code ${outcome.exitCode}`;
    const hint = stderrTail.trim() ? `: ${tail(stderrTail.trim(), 300)}` : "";
    return new AgentError("exit_nonzero", `${name} ${how}${hint}`, { retryable: true, details, ...spend });
  }
  if (parsed?.incomplete) {
    // Exit 0, yet the stream fell short: cut before its result (worth another attempt), or not the
    // CLI's protocol at all (the same call would print the same thing).
    const { kind, message } = parsed.incomplete;
    const unparsedLines = parsed.meta.unparsedLines;
    const sample = Array.isArray(parsed.meta.unparsedSample) ? (parsed.meta.unparsedSample as string[]) : [];
    return new AgentError(kind === "no_result" ? "no_result" : "bad_reply", `${name}: ${message}`, {
      retryable: kind === "no_result",
      details: {
        ...details,
        unparsedLines,
        unparsedSample: sample.map((line) => scrubSecrets(line, secrets)),
        warnings: parsed.warnings,
      },
      ...spend,
    });
  }
  return null;
}

export function createCommandAgent(config: CommandAgentConfig, deps: AgentDeps): AgentPort {
  const preset = commandPresetSpecs[config.preset];
  const pricing = deps.pricing ?? defaultPriceLookup;

  return {
    async run(request: AgentRunRequest): Promise<AgentRunResult> {
      if (request.signal.aborted) throw abortedError("The agent");
      const workspace = await preparedWorkspace(deps, request);
      const cwd = workingDir(workspace, config.cwd);
      const promptFile = resolve(workspace, config.promptFile);
      const sandboxed = (deps.isolation ?? serverIsolation()).mode === "on" && config.sandbox === "on";
      // `model`: the one the CLI is told to run (its -m/--model), which is the one priced.
      const { argv, usesFile, warnings: argvWarnings, model } = buildArgv(config, request.input, promptFile, sandboxed);
      // The agent can leave a symlink where the prompt goes: it is replaced, never written through.
      if (usesFile) writeFileInside(workspace, promptFile, request.input);
      const marker = `RALPH_AGENT_ID=${request.agentId}`;
      const permissions = await permissionWiringFor(config, deps, request, workspace);
      const prepared = await prepareProcess({
        config,
        deps,
        loopId: request.loopId,
        workspace,
        cwd,
        argv: [...argv, ...permissions.args],
        preset: config.preset,
        extraHosts: permissions.hosts,
        extraEnv: {
          ...permissions.env,
          RALPH_LOOP_ID: request.loopId,
          RALPH_ITERATION: String(request.iteration),
          RALPH_ATTEMPT: String(request.attempt),
          RALPH_AGENT_ID: request.agentId,
          RALPH_WORKSPACE: workspace,
          RALPH_PROMPT_FILE: promptFile,
        },
      });
      const secretValues = deps.redactor?.values(prepared.secretValues) ?? prepared.secretValues;

      const parser = preset.parser(config.maxOutputBytes);
      const emit = progressEmitter(request.onProgress, secretValues);
      const partialSpend = () => {
        const spend = parser.spend();
        return spend && priced(spend, model, pricing);
      };
      const doneSoFar = () => {
        const spent = partialSpend();
        return { toolCalls: parser.toolCallsSoFar(), ...(spent ? { usage: spent, costUsd: spent.costUsd } : {}) };
      };
      const reporter = spendReporter(deps.tracker, request, partialSpend);
      const live = outputLines(emit);
      // Claude Code's and Codex's events, kept for the iteration's transcript (other commands: their output).
      const kept = config.preset === "generic" ? null : new TranscriptLines();
      const transcript = () => {
        const taken = kept?.take();
        return taken ? { transcript: scrubDeep(taken, secretValues) } : {};
      };
      const withTranscript = (error: AgentError) => {
        Object.assign(error.details, transcript());
        return error;
      };
      let outcome: ProcessOutcome;
      try {
        outcome = await runProcess({
          argv: prepared.argv,
          cwd,
          env: prepared.env,
          stdin: config.promptVia === "stdin" ? request.input : undefined,
          timeoutMs: config.timeoutSeconds * 1000,
          killGraceMs: config.killGraceMs,
          maxOutputBytes: config.maxOutputBytes,
          signal: request.signal,
          marker,
          ...spoolFor(deps.tracker, request, { preset: config.preset, model, maxOutputBytes: config.maxOutputBytes }),
          onStart: (group) => deps.tracker?.started(request.loopId, request.iteration, group),
          onLine: (line) => {
            // The live view's tail; capped per line so one huge line is not one huge event.
            live.line(line);
            kept?.line(line);
            parser.line(line, emit);
            reporter.poke();
          },
        });
      } finally {
        await permissions.close();
        live.flush();
        reporter.flush();
        deps.tracker?.finished?.(request.loopId, request.iteration);
        prepared.release();
      }
      // Committed by the server (outside the sandbox) whatever the outcome, so no work is lost. Its git
      // processes run while this thread reads the agent's output; every path out of here waits for it, so
      // nothing after this call (the checks, the next agent call) starts before the commit is recorded.
      const snapshotting = takeSnapshot(deps, request.loopId, request.iteration);

      const settle = async (): Promise<AgentRunResult> => {
        if (outcome.aborted) {
          // What it did and spent before the kill still counts.
          throw withTranscript(
            new AgentError("aborted", "The agent was stopped by the operator", { retryable: false, ...doneSoFar() }),
          );
        }
        if (outcome.lost !== null) {
          // Not the agent's doing: another attempt starts a new helper.
          throw withTranscript(
            new AgentError(
              "exit_nonzero",
              `"${argv[0]}" was cut short: ${outcome.lost}; its process group was killed`,
              {
                retryable: true,
                details: {
                  lost: outcome.lost,
                  stdoutBytes: outcome.stdoutBytes,
                  durationMs: Math.round(outcome.durationMs),
                },
                ...doneSoFar(),
              },
            ),
          );
        }
        if (outcome.spawnError !== null) {
          throw new AgentError("spawn_failed", `Could not start "${argv[0]}": ${outcome.spawnError}`, {
            retryable: false,
          });
        }
        const parsed = outcome.timedOut ? null : parser.finish(outcome.stdout);
        const error = failure(config, outcome, parsed, secretValues, partialSpend());
        if (error) throw withTranscript(error);
        const run = parsed!;

        let output = scrubSecrets(run.output, secretValues);
        let truncated = outcome.truncated;
        if (output.length > config.maxOutputBytes) {
          output = output.slice(0, config.maxOutputBytes);
          truncated = true;
        }
        const usage = run.usage ?? { input: 0, output: 0, cache: 0 };
        const warnings = [...argvWarnings, ...run.warnings];
        let costUsd = run.costUsd ?? 0;
        if (run.costUsd === null && model) {
          const priced = priceUsage(pricing, model, usage, { cacheWrite: run.cacheWriteTokens });
          costUsd = priced.costUsd;
          if (priced.warning) warnings.push(priced.warning);
        }
        if (run.usage === null) warnings.push("The agent reported no token usage");

        const workspace = await snapshotting;
        const meta = {
          kind: "command",
          preset: config.preset,
          exitCode: outcome.exitCode,
          stderrTail: tail(outcome.stderrTail, 2000),
          stdoutBytes: outcome.stdoutBytes,
          durationMs: Math.round(outcome.durationMs),
          // Reported by the agent, priced from its token counts, or not known at all.
          costSource: run.costUsd !== null ? "reported" : model ? "priced" : "unknown",
          ...(model ? { model } : {}),
          ...run.meta,
          warnings,
          ...transcript(),
        };
        return {
          output,
          claim: detectClaim(output, run.claim, request.completionSignal),
          usage,
          costUsd,
          toolCalls: run.toolCalls,
          truncated,
          progress: scrubDeep(run.progress, secretValues),
          ...(run.question ? { question: scrubSecrets(run.question, secretValues) } : {}),
          // The code diff can hold a secret the agent wrote into a file.
          ...(workspace ? { workspace: scrubDeep(workspace, secretValues) } : {}),
          // Parsed meta can quote the agent (commands it ran, errors it saw), so it is scrubbed too.
          meta: scrubDeep(meta, secretValues),
        };
      };
      // Whatever happens reading the output, the snapshot is finished before this call returns or throws.
      try {
        return await settle();
      } finally {
        await snapshotting;
      }
    },
  };
}
