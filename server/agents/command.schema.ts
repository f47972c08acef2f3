import { z } from "zod";
import { permissionPolicySchema } from "./permission-policy.schema";
import { HOST_PATTERN, REGISTRIES } from "./sandbox/network-presets";
import { envVarName, secretEnvField, secretIdField } from "./secret-resolver";

/** The most output an operator may keep per agent run (or check, or webhook reply): 10 MB. */
export const MAX_KEPT_OUTPUT_BYTES = 10_000_000;

/** Variables a CLI agent usually needs; nothing else from the server leaks into it. */
export const defaultEnvAllow = ["PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "USER", "SHELL"];

import { commandPresets, type CommandPreset } from "./command-presets";

export { commandPresets, type CommandPreset };

export const childSecretSchema = z
  .object({
    name: envVarName.describe(
      "Variable name inside the agent process (e.g. ANTHROPIC_API_KEY; CLAUDE_CODE_OAUTH_TOKEN for a Claude subscription, CODEX_AUTH_JSON for a ChatGPT login)",
    ),
    env: secretEnvField("Take the value from this server environment variable (default: the same name)").optional(),
    secret: secretIdField("Or from this stored secret (name or id)").optional(),
  })
  .describe("A secret passed to the agent process");

export const sandboxNetworkSchema = z.object({
  providerHosts: z
    .boolean()
    .default(true)
    .describe("The preset's model API hosts (api.anthropic.com for Claude Code, api.openai.com for Codex)"),
  registries: z.array(z.enum(REGISTRIES)).default([]).describe("Package registries it may download from"),
  hosts: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(HOST_PATTERN, "must be a host name like github.com, *.example.com or example.com:8443"),
    )
    .default([])
    .describe("Other hosts it may reach (public hosts; private ones need an admin)"),
});

/** Process limits shared by the command agent, the command-check scorer and the command verifier. */
export const processFields = {
  cwd: z
    .string()
    .refine((p) => !p.startsWith("/") && !p.split(/[\\/]/).includes(".."), "must be a path inside the workspace")
    .default("")
    .describe("Working directory, relative to the loop workspace"),
  timeoutSeconds: z
    .number()
    .min(0)
    .max(7 * 24 * 3600)
    .default(1200)
    .describe(
      "Per attempt: kill the process group after (seconds, 0 = never); loop.stop.iterationTimeout bounds the whole iteration, retries included",
    ),
  killGraceMs: z.number().int().min(0).max(600_000).default(5000).describe("Wait between SIGTERM and SIGKILL (ms)"),
  // Bounded: what is kept is stored per iteration and sent to every browser that opens it.
  maxOutputBytes: z
    .number()
    .int()
    .min(1024)
    .max(MAX_KEPT_OUTPUT_BYTES)
    .default(1_000_000)
    .describe("Output kept (bytes); the rest is dropped and marked truncated"),
  envAllow: z
    .array(envVarName)
    .default(defaultEnvAllow)
    .describe("Server environment variables the process may inherit"),
  env: z
    .record(envVarName, z.string())
    .default({})
    .meta({ description: "Extra fixed variables (not for secrets: use Secrets)", secret: true }),
  secrets: z.array(childSecretSchema).default([]).describe("Secrets passed as variables"),
  sandbox: z
    .enum(["on", "off"])
    .default("on")
    .describe("Run inside the sandbox: workspace writable, data and app folders hidden (off: admins only)"),
  network: sandboxNetworkSchema.prefault({}).describe("What the process may reach from inside the sandbox"),
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
    permissions: permissionPolicySchema
      .optional()
      .describe("Tool calls that wait for an operator's approval (claude-code preset only)"),
    ...processFields,
  })
  .refine((c) => c.preset !== "generic" || (c.argv?.length ?? 0) > 0, {
    message: "the generic preset needs a command",
    path: ["argv"],
  })
  .refine((c) => c.permissions === undefined || c.preset === "claude-code", {
    message: "permission prompts need the claude-code preset (its --permission-prompt-tool)",
    path: ["permissions"],
  })
  .describe("Command-line agent (a fresh process per iteration)");

export type CommandAgentConfig = z.output<typeof commandAgentSchema>;
export type ProcessFields = z.output<z.ZodObject<typeof processFields>>;
