import { z } from "zod";
import { processFields, sandboxNetworkSchema } from "./command.schema";
import { REGISTRIES } from "./sandbox/network-presets";

/**
 * The loop's setup command: run once, in the sandbox, in the loop's new
 * worktree before iteration 1 (`npm ci`, `pip install -e .`, `uv sync`).
 * Its failure stops the loop with the reason, instead of failing every iteration.
 */
export const workspaceSetupSchema = z.object({
  argv: z
    .array(z.string().min(1).max(4096))
    .max(100)
    .default([])
    .describe("Setup command, run once in the new worktree before iteration 1 (e.g. npm ci); empty: none"),
  ...processFields,
  timeoutSeconds: z
    .number()
    .min(1)
    .max(24 * 3600)
    .default(900)
    .describe("Kill the setup command after (seconds); the loop then stops with the reason"),
  // Installing dependencies needs the registries; anything else stays closed.
  network: sandboxNetworkSchema
    .prefault({ registries: [...REGISTRIES] })
    .describe("What the setup may reach from inside the sandbox (default: the package registries)"),
});

export type WorkspaceSetupConfig = z.output<typeof workspaceSetupSchema>;
