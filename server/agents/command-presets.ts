// The command-agent presets, in a leaf module so the schema and the sandbox's
// network presets can both name them without importing each other.
export const commandPresets = ["generic", "claude-code", "codex"] as const;
export type CommandPreset = (typeof commandPresets)[number];
