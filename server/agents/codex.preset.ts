/**
 * Codex, non-interactive: `codex exec --json` (prompt on stdin). JSONL
 * events: thread.started {thread_id}, turn.started, item.started /
 * item.updated / item.completed {item: {id, type, ...}}, turn.completed
 * {usage: {input_tokens, cached_input_tokens, output_tokens}}, turn.failed
 * {error: {message}} and error {message}. Item types: agent_message {text},
 * reasoning, command_execution {command, exit_code}, file_change {changes},
 * mcp_tool_call {server, tool}, web_search, todo_list, error.
 *
 * Source: https://github.com/openai/codex/blob/main/docs/exec.md ("JSON output
 * mode"); Codex reports tokens but no cost, so cost comes from the pricing
 * table when the config names the model.
 */
import { isUsageLimitText } from "../engine";
import {
  CappedText,
  num,
  obj,
  str,
  JsonEventStream,
  type CommandPresetSpec,
  type JsonObject,
  type PresetArgs,
  type PresetArgsContext,
  type StreamParser,
} from "./stream-parser";

const TOOL_ITEMS = new Set(["command_execution", "file_change", "mcp_tool_call", "web_search"]);

interface CodexWindow {
  name: "primary" | "secondary";
  usedPercent: number | null;
  resetAt: number | null;
}

/**
 * Codex's `rate_limits` snapshot (primary = the 5-hour window, secondary = the
 * weekly one: {used_percent, window_minutes, resets_at (epoch s) or the older
 * resets_in_seconds}), wherever an event carries it; null when none does.
 */
export function codexRateLimitsOf(event: JsonObject, now: number): CodexWindow[] | null {
  const holder = [event, obj(event.msg), obj(event.payload), obj(event.info), obj(obj(event.msg)?.info)].find(
    (o) => obj(o?.rate_limits) !== undefined,
  );
  const limits = obj(holder?.rate_limits);
  if (!limits) return null;
  const windows: CodexWindow[] = [];
  for (const name of ["primary", "secondary"] as const) {
    const w = obj(limits[name]);
    if (!w) continue;
    const pct = w.used_percent;
    const resetsAt = typeof w.resets_at === "number" && w.resets_at > 0 ? w.resets_at * 1000 : null;
    const resetsIn = typeof w.resets_in_seconds === "number" ? now + w.resets_in_seconds * 1000 : null;
    windows.push({
      name,
      usedPercent: typeof pct === "number" && Number.isFinite(pct) ? pct : null,
      resetAt: resetsAt ?? resetsIn,
    });
  }
  return windows;
}

/** The window that limits: the fullest one (the later reset on a tie). */
function limitingWindow(windows: CodexWindow[]): CodexWindow | null {
  return windows.reduce<CodexWindow | null>((best, w) => {
    if (!best) return w;
    const a = best.usedPercent ?? -1;
    const b = w.usedPercent ?? -1;
    return b > a || (b === a && (w.resetAt ?? 0) > (best.resetAt ?? 0)) ? w : best;
  }, null);
}

function toolName(item: Record<string, unknown>): string {
  if (item.type === "mcp_tool_call") return `mcp:${str(item.server) ?? "?"}/${str(item.tool) ?? "?"}`;
  return String(item.type);
}

export function codexParser(maxChars: number, now: () => number = Date.now): StreamParser {
  const messages = new CappedText(maxChars);
  let lastMessage: string | undefined;
  const stream = new JsonEventStream();
  const toolCalls = stream.toolCalls;
  const seenTools = new Set<string>();
  const usage = { input: 0, output: 0, cache: 0 };
  let sawUsage = false;
  let threadId: string | undefined;
  let turns = 0;
  const errors: string[] = [];
  const commands: { command: string; exitCode: number | null }[] = [];
  // Whether the run ended on an error event (no turn completed after it).
  let endedOnError = false;
  let rateLimits: CodexWindow[] | null = null;

  return {
    line(line, emit) {
      const event = stream.read(line, emit);
      if (!event) return;
      rateLimits = codexRateLimitsOf(event, now()) ?? rateLimits;
      const item = obj(event.item);
      switch (event.type) {
        case "thread.started":
          threadId = str(event.thread_id);
          emit({ kind: "progress", message: "codex thread started" });
          return;
        case "item.started":
        case "item.updated":
        case "item.completed": {
          const type = str(item?.type);
          if (item && type && TOOL_ITEMS.has(type)) {
            if (event.type === "item.completed" && type === "command_execution") {
              commands.push({
                command: str(item.command) ?? "",
                exitCode: typeof item.exit_code === "number" ? item.exit_code : null,
              });
            }
            // One call per item id, whether we first see it started or completed.
            const id = str(item.id) ?? `${type}-${toolCalls.length}`;
            if (!seenTools.has(id)) {
              seenTools.add(id);
              const name = toolName(item);
              stream.toolCall(name, emit);
              return;
            }
          }
          if (event.type === "item.completed" && type === "agent_message" && typeof item?.text === "string") {
            messages.push(item.text);
            lastMessage = item.text;
          }
          if (event.type === "item.completed" && type === "error") errors.push(str(item?.message) ?? "item error");
          emit({ kind: "heartbeat" });
          return;
        }
        case "turn.completed": {
          turns++;
          endedOnError = false;
          const u = obj(event.usage);
          if (u) {
            sawUsage = true;
            // OpenAI counts cached tokens inside input_tokens; keep them apart.
            const cached = num(u.cached_input_tokens);
            usage.input += Math.max(0, num(u.input_tokens) - cached);
            usage.cache += cached;
            usage.output += num(u.output_tokens);
          }
          emit({ kind: "progress", message: "codex turn completed" });
          return;
        }
        case "turn.failed":
          errors.push(str(obj(event.error)?.message) ?? "turn failed");
          endedOnError = true;
          emit({ kind: "progress", message: "codex turn failed" });
          return;
        case "error":
          errors.push(str(event.message) ?? "error");
          endedOnError = true;
          emit({ kind: "heartbeat" });
          return;
        default:
          emit({ kind: "heartbeat" });
      }
    },

    toolCallsSoFar: () => [...toolCalls],

    spend() {
      return sawUsage ? { usage: { ...usage }, costUsd: null, cacheWriteTokens: 0 } : null;
    },

    finish() {
      const warnings: string[] = [];
      if (turns === 0) warnings.push("Codex printed no turn.completed event");
      // The final agent_message is the answer; earlier ones are progress notes.
      const output = lastMessage ?? messages.join("\n\n");
      if (turns > 0 && lastMessage === undefined) warnings.push("Codex ended its turn without a final message");
      // A turn that failed (turn.failed, or an error event nothing recovered from) is the run's failure.
      const failed = errors.length > 0 && (turns === 0 || endedOnError);
      const lastError = errors[errors.length - 1];
      // An interrupted turn prints neither turn.completed nor turn.failed, and Codex still exits 0.
      const incomplete =
        failed || turns > 0
          ? null
          : stream.incomplete(
              "Codex",
              "JSONL",
              "is it run as codex exec --json?",
              "Codex's stream ended without turn.completed or a final message",
            );
      const limited = endedOnError && lastError !== undefined && isUsageLimitText(lastError);
      const window = limited && rateLimits ? limitingWindow(rateLimits) : null;
      return {
        incomplete,
        usageLimit: limited ? lastError.slice(0, 500) : null,
        limitInfo: window ? { resetAt: window.resetAt, window: window.name, usedPercent: window.usedPercent } : null,
        output,
        usage: sawUsage ? usage : null,
        cacheWriteTokens: 0,
        costUsd: null,
        toolCalls,
        error: failed ? `Codex failed: ${errors[errors.length - 1]!.slice(0, 300)}` : null,
        meta: {
          threadId: threadId ?? null,
          turns,
          errors: errors.slice(-5),
          commands: commands.slice(-20),
          unparsedLines: stream.unparsedLines,
          unparsedSample: stream.unparsedSample,
          ...(rateLimits ? { rateLimits } : {}),
        },
        warnings,
      };
    },
  };
}

/** The provider id the preset defines when the loop names a base URL (OPENAI_BASE_URL, which Codex ignores). */
export const CODEX_PROVIDER_ID = "ralph";

const has = (argv: readonly string[], ...flags: string[]) =>
  argv.some((a) => flags.some((f) => a === f || a.startsWith(`${f}=`)));

/**
 * Today's Codex (0.171): `--full-auto` is gone; inside our sandbox Codex's own bubblewrap cannot
 * nest (no user namespaces), so ours is the sandbox and Codex's is bypassed; outside it (an admin
 * turned ours off) Codex keeps its own workspace-write sandbox. The loop's model goes on `-m` (else
 * Codex runs its default and the cost is priced for the wrong model). A base URL in the loop's
 * `env` becomes a provider: a fresh HOME has no config.toml, and OPENAI_BASE_URL is ignored.
 */
export function codexArgs(ctx: PresetArgsContext): PresetArgs {
  const warnings: string[] = [];
  const extraArgs = ctx.extraArgs.filter((a) => a !== "--full-auto");
  if (extraArgs.length !== ctx.extraArgs.length)
    warnings.push("--full-auto was dropped: Codex 0.171 no longer accepts it (the preset sets the sandbox flags)");
  const args: string[] = [];
  if (!has(extraArgs, "--dangerously-bypass-approvals-and-sandbox", "--sandbox", "-s", "--full-auto"))
    args.push(...(ctx.sandboxed ? ["--dangerously-bypass-approvals-and-sandbox"] : ["--sandbox", "workspace-write"]));
  if (!has(extraArgs, "--skip-git-repo-check")) args.push("--skip-git-repo-check");
  if (ctx.model && !has(extraArgs, "-m", "--model")) args.push("-m", ctx.model);
  const baseUrl = ctx.env.OPENAI_BASE_URL?.trim();
  if (baseUrl && !extraArgs.some((a) => a.startsWith("model_provider"))) {
    // Codex reads the key from the variable the provider names: the one the loop passes.
    const keyVar = ["CODEX_API_KEY", "OPENAI_API_KEY"].find((n) => ctx.secretNames.includes(n) || ctx.env[n]);
    const p = `model_providers.${CODEX_PROVIDER_ID}`;
    args.push(
      ...["-c", `${p}.name="Ralph provider"`],
      ...["-c", `${p}.base_url=${JSON.stringify(baseUrl)}`],
      ...["-c", `${p}.wire_api="responses"`],
      ...(keyVar ? ["-c", `${p}.env_key=${JSON.stringify(keyVar)}`] : []),
      ...["-c", `model_provider="${CODEX_PROVIDER_ID}"`],
    );
  }
  return { args, extraArgs, warnings };
}

export const codexPreset: CommandPresetSpec = {
  // No prompt argument: codex exec then reads the prompt from stdin, and extraArgs can follow freely.
  argv: ["codex", "exec", "--json"],
  parser: codexParser,
  args: codexArgs,
  // `codex-cli 0.171.0`. The JSONL events read here (thread.started, item.*, turn.completed) came with 0.44.
  versions: { parse: /codex-cli\s+(\d+\.\d+\.\d+)/, min: "0.44.0", verified: "0.171.0" },
};
