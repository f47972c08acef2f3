/**
 * The command agent must add under 5 ms per iteration to the agent's own
 * process time. Measured against a bare spawn of the same instant script.
 */
import { spawn } from "node:child_process";
import { afterAll, expect, it } from "vitest";
import { createCommandAgent } from "./command.executor";
import { commandAgentSchema } from "./command.schema";
import { fixture, request, tempRoot, testDeps } from "./fixtures/harness";

const tmp = tempRoot();
afterAll(() => tmp.cleanup());

function bareSpawn(file: string, input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.on("data", () => undefined);
    child.stderr.on("data", () => undefined);
    child.on("error", reject);
    child.on("close", () => resolve());
    // The script answers without reading its prompt; like the executor, ignore the EPIPE that may follow.
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

it("adds less than 5 ms per iteration over a bare spawn", async () => {
  const script = fixture("instant.sh");
  const agent = createCommandAgent(commandAgentSchema.parse({ kind: "command", argv: [script] }), testDeps(tmp.root));
  const req = request({ input: "Answer at once" });
  for (let i = 0; i < 5; i++) {
    await bareSpawn(script, req.input);
    await agent.run(req);
  }
  const bare: number[] = [];
  const wrapped: number[] = [];
  for (let i = 0; i < 50; i++) {
    let t = performance.now();
    await bareSpawn(script, req.input);
    bare.push(performance.now() - t);
    t = performance.now();
    const result = await agent.run(req);
    wrapped.push(performance.now() - t);
    expect(result.claim.done).toBe(true);
  }
  const overhead = median(wrapped) - median(bare);
  console.info(`command agent: median ${median(wrapped).toFixed(2)} ms vs bare spawn ${median(bare).toFixed(2)} ms (overhead ${overhead.toFixed(2)} ms)`);
  expect(overhead).toBeLessThan(5);
}, 60_000);
