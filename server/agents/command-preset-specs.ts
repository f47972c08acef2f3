// The command-agent presets by name, and the argv a config runs with: the
// preset's command, what it derives for the installed CLI, the operator's args.
import { claudeCodePreset } from "./claude-code.preset";
import { codexPreset } from "./codex.preset";
import type { CommandAgentConfig, CommandPreset } from "./command.schema";
import { genericPreset } from "./generic.preset";
import type { CommandPresetSpec } from "./stream-parser";

export const commandPresetSpecs: Record<CommandPreset, CommandPresetSpec> = {
  generic: genericPreset,
  "claude-code": claudeCodePreset,
  codex: codexPreset,
};

/**
 * The preset's command, the arguments it derives from the config for the installed CLI (model,
 * provider, sandbox flags), then the operator's extraArgs. An explicit `argv` is taken as is.
 */
export function presetArgv(config: CommandAgentConfig, sandboxed: boolean) {
  const spec = commandPresetSpecs[config.preset];
  if (config.argv) return { argv: [...config.argv, ...config.extraArgs], warnings: [] as string[] };
  const derived = spec.args?.({
    model: config.model,
    env: config.env,
    secretNames: config.secrets.map((s) => s.name),
    sandboxed,
    extraArgs: config.extraArgs,
  }) ?? { args: [], extraArgs: [...config.extraArgs], warnings: [] };
  return { argv: [...spec.argv, ...derived.args, ...derived.extraArgs], warnings: derived.warnings };
}
