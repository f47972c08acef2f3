/**
 * Any CLI: stdout is the answer and the exit code decides failure. A line
 * that is exactly a JSON object of control keys — {"usage":..,"cost":..,
 * "claim":..,"toolCalls":..,"progress":..} — is honoured and removed from the
 * answer, so simple scripts can report tokens, cost and a done signal.
 */
import type { AgentClaim, AgentProgressReport, TokenUsage } from "../engine";
import { claimFromValue } from "./claim";
import { progressReportSchema, usageSchema } from "./progress.schema";
import { jsonLine, type CommandPresetSpec, type StreamParser } from "./stream-parser";

const CONTROL_KEYS = new Set(["usage", "cost", "claim", "toolCalls", "progress"]);

export function genericParser(): StreamParser {
  const controlLines = new Set<string>();
  let usage: TokenUsage | null = null;
  let cost: number | null = null;
  let claim: AgentClaim | undefined;
  let progress: AgentProgressReport | undefined;
  const toolCalls: string[] = [];
  const warnings: string[] = [];

  return {
    line(line, emit) {
      const value = line.includes('"') ? jsonLine(line) : undefined;
      const keys = value ? Object.keys(value) : [];
      if (!value || keys.length === 0 || !keys.every((k) => CONTROL_KEYS.has(k))) {
        emit({ kind: "heartbeat" });
        return;
      }
      controlLines.add(line.trim());
      if (value.usage !== undefined) {
        const parsed = usageSchema.safeParse(value.usage);
        if (parsed.success) usage = parsed.data;
        else warnings.push("ignored an invalid usage report");
      }
      if (typeof value.cost === "number" && Number.isFinite(value.cost) && value.cost >= 0) cost = value.cost;
      claim = claimFromValue(value.claim) ?? claim;
      if (value.progress !== undefined) {
        const parsed = progressReportSchema.safeParse(value.progress);
        if (parsed.success) progress = parsed.data;
        else warnings.push("ignored an invalid progress report");
      }
      if (Array.isArray(value.toolCalls)) {
        for (const name of value.toolCalls) {
          if (typeof name !== "string") continue;
          toolCalls.push(name);
          emit({ kind: "tool_call", name });
        }
      } else {
        emit({ kind: "progress", message: "agent report" });
      }
    },

    toolCallsSoFar() {
      return [...toolCalls];
    },

    spend() {
      if (usage === null && cost === null) return null;
      return { usage: usage ?? { input: 0, output: 0, cache: 0 }, costUsd: cost, cacheWriteTokens: 0 };
    },

    finish(keptStdout) {
      const output =
        controlLines.size === 0
          ? keptStdout
          : keptStdout
              .split("\n")
              .filter((l) => !controlLines.has(l.trim()))
              .join("\n");
      return {
        output,
        usage,
        cacheWriteTokens: 0,
        costUsd: cost,
        toolCalls,
        claim,
        progress,
        error: null,
        meta: {},
        warnings,
      };
    },
  };
}

export const genericPreset: CommandPresetSpec = { argv: [], parser: genericParser };
