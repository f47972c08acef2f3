import { z } from "zod";
import { envVarName, secretEnvField, secretIdField } from "./secret-resolver";

/** Variables a CLI agent usually needs; nothing else from the server leaks into it. */
export const defaultEnvAllow = ["PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "USER", "SHELL"];

export const commandPresets = ["generic", "claude-code", "codex"] as const;
export type CommandPreset = (typeof commandPresets)[number];

export const childSecretSchema = z
  .object({
    name: envVarName.describe("Variable name inside the agent process (e.g. ANTHROPIC_API_KEY)"),
    env: secretEnvField("Take the value from this server environment variable (default: the same name)").optional(),
    secret: secretIdField("Or from this stored secret (id)").optional(),
  })
  .describe("A secret passed to the agent process");

/** Process limits shared by the command agent, the command-check scorer and the command verifier. */
export const processFields = {
  cwd: z
    .string()
    .refine((p) => !p.startsWith("/") && !p.split(/[\\/]/).includes(".."), "must be a path inside the workspace")
    .default("")
    .describe("Working directory, relative to the loop workspace"),
  timeoutSeconds: z.number().min(0).default(1800).describe("Kill the process group after (seconds, 0 = never)"),
  killGraceMs: z.number().int().min(0).default(5000).describe("Wait between SIGTERM and SIGKILL (ms)"),
  maxOutputBytes: z.number().int().min(1024).default(1_000_000).describe("Output kept (bytes); the rest is dropped and marked truncated"),
  envAllow: z.array(envVarName).default(defaultEnvAllow).describe("Server environment variables the process may inherit"),
  env: z
    .record(envVarName, z.string())
    .default({})
    .meta({ description: "Extra fixed variables (not for secrets: use Secrets)", secret: true }),
  secrets: z.array(childSecretSchema).default([]).describe("Secrets passed as variables"),
};

export const commandAgentSchema = z
  .object({
    kind: z.literal("command"),
    preset: z
      .enum(commandPresets)
      .default("generic")
      .describe("How to read the output: generic text, Claude Code stream-json or Codex JSONL"),
    argv: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe("Command and arguments, no shell (default: the preset's). {prompt} and {promptFile} are replaced"),
    extraArgs: z.array(z.string()).default([]).describe("Arguments appended to the preset's command (e.g. --model)"),
    promptVia: z
      .enum(["stdin", "file", "argument"])
      .default("stdin")
      .describe("How the prompt reaches the agent (argument is limited to ~128 KB)"),
    promptFile: z
      .string()
      .refine((p) => !p.startsWith("/") && !p.split(/[\\/]/).includes(".."), "must be a path inside the workspace")
      .default(".ralph/prompt.md")
      .describe("Prompt file, relative to the workspace (used by {promptFile})"),
    model: z.string().optional().describe("Model id, for pricing when the CLI reports tokens but no cost"),
    ...processFields,
  })
  .refine((c) => c.preset !== "generic" || (c.argv?.length ?? 0) > 0, {
    message: "the generic preset needs a command",
    path: ["argv"],
  })
  .describe("Command-line agent (a fresh process per iteration)");

export type CommandAgentConfig = z.output<typeof commandAgentSchema>;
export type ProcessFields = z.output<z.ZodObject<typeof processFields>>;
