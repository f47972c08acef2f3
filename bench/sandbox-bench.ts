// What isolation costs per iteration of a command agent: the same instant
// agent (a shell script that answers at once) through the executor without
// the sandbox (the orphan watcher only) and inside it (bubblewrap, its own
// filesystem view, network namespace and proxy), against a bare spawn.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCommandAgent } from "../server/agents/command.executor";
import { commandAgentSchema } from "../server/agents/command.schema";
import { hiddenPaths, type IsolationSettings } from "../server/agents/sandbox/isolation";
import { sandboxAvailability } from "../server/agents/sandbox/sandbox-runtime";
import type { SecretResolver } from "../server/agents/secret-resolver";
import { percentile } from "./runtime-bench";

const SCRIPT = `#!/bin/sh
echo "answer"
echo '{"usage":{"input":10,"output":5,"cache":0},"cost":0}'
`;

function bare(file: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

export interface SandboxCost {
  available: boolean;
  bareMs: { p50: number; p95: number };
  unsandboxedMs: { p50: number; p95: number };
  sandboxedMs: { p50: number; p95: number };
}

export async function measureSandboxCost(iterations = 40): Promise<SandboxCost> {
  const root = mkdtempSync(join(tmpdir(), "ralph-sandbox-bench-"));
  try {
    const workspace = join(root, "data", "workspaces", "bench");
    mkdirSync(workspace, { recursive: true });
    const script = join(workspace, "agent.sh");
    writeFileSync(script, SCRIPT);
    chmodSync(script, 0o755);
    const secrets: SecretResolver = { resolve: async () => undefined };
    const isolation = (mode: "on" | "off"): IsolationSettings => ({
      mode,
      hidden: hiddenPaths(join(root, "data"), process.cwd()),
      homeRoot: join(root, "data", "agent-homes"),
      allowHosts: [],
    });
    const agentWith = (mode: "on" | "off") =>
      createCommandAgent(commandAgentSchema.parse({ kind: "command", argv: ["./agent.sh"] }), {
        workspaceDir: () => workspace,
        secrets,
        isolation: isolation(mode),
      });
    const request = {
      loopId: "bench",
      iteration: 1,
      agentId: "bench-agent",
      attempt: 1,
      goal: "g",
      input: "answer at once",
      signal: new AbortController().signal,
      onProgress: () => undefined,
    };
    const available = (await sandboxAvailability()).available;
    const timed = async (run: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < 3; i++) await run(); // warm up
      for (let i = 0; i < iterations; i++) {
        const t = performance.now();
        await run();
        samples.push(performance.now() - t);
      }
      return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
    };
    const off = agentWith("off");
    const on = agentWith("on");
    return {
      available,
      bareMs: await timed(() => bare(script, workspace)),
      unsandboxedMs: await timed(() => off.run(request)),
      sandboxedMs: available ? await timed(() => on.run(request)) : { p50: NaN, p95: NaN },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
