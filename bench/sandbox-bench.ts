// What isolation costs per iteration of a command agent: the same instant
// agent (a shell script that answers at once) through the executor without
// the sandbox (the orphan watcher only), entering the loop's warm sandbox
// (the default), and starting a sandbox of its own (bubblewrap, its own
// filesystem view, network namespace and relays: RALPH_SANDBOX_WARM=off),
// against a bare spawn; interleaved. Target (issue 36): a sandboxed launch
// costs < 10 ms at the median over the unsandboxed one.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCommandAgent } from "../server/agents/command.executor";
import { commandAgentSchema } from "../server/agents/command.schema";
import { hiddenPaths, type IsolationSettings } from "../server/agents/sandbox/isolation";
import { sandboxAvailability } from "../server/agents/sandbox/sandbox-runtime";
import { closeWarmSandboxes } from "../server/agents/sandbox/warm-pool";
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
  /** Each process starts its own sandbox (RALPH_SANDBOX_WARM=off). */
  sandboxedMs: { p50: number; p95: number };
  /** The default: each process enters the loop's warm sandbox. */
  warmMs: { p50: number; p95: number };
  /** Per round, warm sandboxed − unsandboxed (the launch overhead the target is about). */
  warmOverheadMs: { p50: number; p95: number };
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
    const isolation = (mode: "on" | "off", warm: "on" | "off"): IsolationSettings => ({
      mode,
      hidden: hiddenPaths(join(root, "data"), process.cwd()),
      homeRoot: join(root, "data", "agent-homes"),
      allowHosts: [],
      warm,
    });
    const agentWith = (mode: "on" | "off", warm: "on" | "off" = "on") =>
      createCommandAgent(commandAgentSchema.parse({ kind: "command", argv: ["./agent.sh"] }), {
        workspaceDir: () => workspace,
        secrets,
        isolation: isolation(mode, warm),
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
    const off = agentWith("off");
    const warm = agentWith("on", "on");
    const cold = agentWith("on", "off");
    const kinds: [string, () => Promise<unknown>][] = [
      ["bare", () => bare(script, workspace)],
      ["off", () => off.run(request)],
      ...(available
        ? ([
            ["warm", () => warm.run(request)],
            ["cold", () => cold.run(request)],
          ] as [string, () => Promise<unknown>][])
        : []),
    ];
    // Interleaved rounds, so the machine's load falls on every kind alike.
    const samples = new Map<string, number[]>(kinds.map(([k]) => [k, []]));
    for (let i = -3; i < iterations; i++) {
      for (const [kind, run] of kinds) {
        const t = performance.now();
        await run();
        if (i >= 0) samples.get(kind)!.push(performance.now() - t);
      }
    }
    const stat = (kind: string) => {
      const s = samples.get(kind) ?? [];
      return s.length ? { p50: percentile(s, 50), p95: percentile(s, 95) } : { p50: NaN, p95: NaN };
    };
    const offS = samples.get("off")!;
    const diffs = (samples.get("warm") ?? []).map((w, i) => w - offS[i]!);
    return {
      available,
      bareMs: stat("bare"),
      unsandboxedMs: stat("off"),
      sandboxedMs: stat("cold"),
      warmMs: stat("warm"),
      warmOverheadMs: diffs.length
        ? { p50: percentile(diffs, 50), p95: percentile(diffs, 95) }
        : { p50: NaN, p95: NaN },
    };
  } finally {
    closeWarmSandboxes();
    rmSync(root, { recursive: true, force: true });
  }
}
