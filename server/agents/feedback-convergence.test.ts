/**
 * Convergence depends on the evidence in the next input: a real agent process
 * that fixes only what the prompt's [Failing tests] section names completes
 * within 3 iterations, and never completes once the template drops that
 * section. The check is a real TAP script in a temp repo, run in the sandbox.
 */
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  inputSections,
  runLoop,
  type ControlAck,
  type ControlQueue,
  type ControlRequest,
  type StepOutcome,
} from "../engine";
import { fixture, realEngineDeps, tempRoot } from "./fixtures/harness";
import { createPorts } from "./registry";
import { hiddenPaths } from "./sandbox/isolation";
import { envSecretResolver } from "./secret-resolver";

const tmp = tempRoot("ralph-feedback-");
afterAll(() => tmp.cleanup());

const FUNCS = `add() { echo $(( $1 - $2 )); }
sub() { echo $(( $1 - $2 )); }
mul() { echo $(( $1 + $2 )); }
`;
const TEST_SH = `#!/usr/bin/env bash
. ./funcs.sh
echo "TAP version 13"
echo "1..3"
fail=0
check() { if [ "$2" = "$3" ]; then echo "ok $1 - $4"; else echo "not ok $1 - $4"; echo "  # expected $3, got $2"; fail=1; fi; }
check 1 "$(add 2 3)" 5 add
check 2 "$(sub 5 3)" 2 sub
check 3 "$(mul 2 3)" 6 mul
exit $fail
`;

async function run(
  name: string,
  sections: readonly string[],
  agent = "feedback-agent.sh",
  extra: { question?: Record<string, unknown>; controls?: ControlQueue; onStep?: (o: StepOutcome) => void } = {},
) {
  const repo = join(tmp.root, name);
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, "funcs.sh"), FUNCS);
  writeFileSync(join(repo, "test.sh"), TEST_SH);
  chmodSync(join(repo, "test.sh"), 0o755);
  copyFileSync(fixture(agent), join(repo, agent));
  chmodSync(join(repo, agent), 0o755);
  const isolation = {
    mode: "on" as const,
    hidden: hiddenPaths(join(tmp.root, "data"), process.cwd()),
    homeRoot: join(tmp.root, "homes"),
    allowHosts: [],
  };
  const ports = createPorts(
    {
      agent: { kind: "command", argv: [`./${agent}`], timeoutSeconds: 30 },
      scorers: [{ kind: "command-check", name: "tests", argv: ["./test.sh"], format: "tap" }],
      reflector: { kind: "rule-based" },
    },
    { workspaceDir: () => repo, secrets: envSecretResolver, isolation },
    name,
  );
  const result = await runLoop({
    goal: "Make ./test.sh pass",
    config: {
      input: { sections },
      stop: { maxIterations: 4, scoreThreshold: 1, noProgressIterations: 0 },
      completion: { evidence: ["score"] },
      retry: { maxAttempts: 1 },
      question: extra.question ?? {},
      pacing: { pollIntervalMs: 20 },
    },
    ports,
    deps: realEngineDeps(),
    controls: extra.controls,
    onStep: extra.onStep,
  });
  return { result, funcs: readFileSync(join(repo, "funcs.sh"), "utf8") };
}

describe("convergence depends on the evidence in the next input", () => {
  it("completes within 3 iterations when the input names the failing tests", async () => {
    const { result, funcs } = await run("with-evidence", inputSections);
    expect(result.stopType).toBe("score_threshold");
    expect(result.iterations).toBeLessThanOrEqual(3);
    const [first, second] = result.records;
    expect(first!.claimMismatch).toBe("claimed_done_without_evidence");
    expect(second!.input).toContain("[Failing tests]\ntests: 2 of 3 failed (tap, exit 1)\n- add");
    expect(second!.input).toContain("[Claim rejected]");
    expect(second!.input).toContain("<promise>COMPLETE</promise>");
    expect(funcs).toContain("sub() { echo $(( $1 - $2 )); }"); // untouched: it was never named
  }, 60_000);

  it("never completes when the template drops the evidence section", async () => {
    const { result } = await run(
      "without-evidence",
      inputSections.filter((s) => s !== "Failing tests"),
    );
    expect(result.report.success).toBe(false);
    expect(result.stopType).toBe("max_iterations");
    expect(result.records).toHaveLength(4);
    for (const record of result.records) expect(record.input).not.toContain("[Failing tests]");
  }, 60_000);

  it("a question the agent ends with reaches the next input, with the standing answer", async () => {
    const { result } = await run("asking", inputSections, "asking-agent.sh", { question: { policy: "auto-answer" } });
    expect(result.report.success).toBe(false);
    expect(result.records[0]!.input).not.toContain("[Agent question]");
    expect(result.records[1]!.input).toContain(
      "[Agent question]\nYour previous message asked:\n> Should add() also accept strings? Please confirm before I change it.",
    );
  }, 60_000);

  it("the stopper waits in needs_attention after its first iteration; the operator's answer reaches the next input", async () => {
    // An operator who answers as soon as the loop asks, through the same stored-request path as the API.
    const pending: ControlRequest[] = [];
    const settled: ControlAck[] = [];
    const statuses: string[] = [];
    const controls: ControlQueue = {
      read: async () => pending.filter((r) => !settled.some((a) => a.requestId === r.id)),
      settle: (acks) => void settled.push(...acks),
    };
    const onStep = (o: StepOutcome) => {
      statuses.push(o.snapshot.status);
      if (o.decision.kind !== "await_answer" || o.iteration === null) return;
      const command =
        pending.length === 0
          ? { kind: "answer" as const, message: "No, numbers only." }
          : { kind: "terminate" as const };
      pending.push({ id: `r-${pending.length + 1}`, requestedAt: Date.now(), by: "ops@example.com", command });
    };
    const { result } = await run("asking-ask", inputSections, "asking-agent.sh", { controls, onStep });
    expect(statuses[0]).toBe("needs_attention");
    expect(settled.map((a) => [a.requestId, a.outcome])).toEqual([
      ["r-1", "applied"],
      ["r-2", "applied"],
    ]);
    expect(result.records[1]!.input).toContain(
      "[Agent question]\nYour previous message asked:\n> Should add() also accept strings? Please confirm before I change it.\nThe operator answered:\n> No, numbers only.",
    );
    // It asks again every time; each time the loop waits for the operator instead of re-sending the prompt.
    expect(result.records).toHaveLength(2);
    expect(result.stopType).toBe("explicit_stop");
  }, 60_000);
});
