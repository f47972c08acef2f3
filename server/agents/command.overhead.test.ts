/**
 * An agent that answers at once, without reading its prompt, run after run:
 * the executor must never trip on the EPIPE this causes, nor lose the answer.
 * How much the executor adds to the script's own time is a figure in
 * `npm run bench` (target < 5 ms), not an assertion here.
 */
import { afterAll, expect, it } from "vitest";
import { createCommandAgent } from "./command.executor";
import { commandAgentSchema } from "./command.schema";
import { fixture, request, tempRoot, testDeps } from "./fixtures/harness";

const tmp = tempRoot();
afterAll(() => tmp.cleanup());

it("an instant agent that never reads its prompt answers every time", async () => {
  const agent = createCommandAgent(
    commandAgentSchema.parse({ kind: "command", argv: [fixture("instant.sh")] }),
    testDeps(tmp.root),
  );
  // A prompt larger than a pipe buffer makes the unread stdin fail with EPIPE.
  const req = request({ input: "Answer at once. ".repeat(10_000) });
  for (let i = 0; i < 20; i++) {
    const result = await agent.run(req);
    expect(result.claim.done).toBe(true);
  }
}, 60_000);
