// An agent that says it is blocked in words no rule matches: with a model
// verifier configured (a real HTTP server speaking the Anthropic protocol),
// the verifier's judgement flags the question and the loop waits for the
// operator; without one, the rules alone apply and the loop moves on.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectQuestion, runLoop, type StepOutcome } from "../engine";
import { realEngineDeps, tempRoot, testDeps } from "./fixtures/harness";
import { startLlmServer, type LlmServer } from "./fixtures/llm-server";
import { createAgent, createScorers, createVerifier } from "./registry";

const tmp = tempRoot("ralph-judge-");
let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const BLOCKER = "the staging database credentials are missing from .env";
const script = fileURLToPath(new URL("../../test/fixtures/blocked-agent.mjs", import.meta.url));
const deps = () => testDeps(tmp.root, { "env:ANTHROPIC_API_KEY": "sk-judge-0123456789" });

async function run(loopId: string, withVerifier: boolean, judge = false) {
  const statuses: string[] = [];
  const agent = createAgent({ kind: "command", argv: [process.execPath, script], timeoutSeconds: 30 }, deps());
  const scorers = judge
    ? createScorers(
        [
          {
            kind: "llm-judge",
            provider: "anthropic",
            model: "claude-haiku-4-5",
            baseURL: server.baseURL,
            rubric: "Migrated",
          },
        ],
        deps(),
      )
    : [];
  const verifier = withVerifier
    ? createVerifier(
        { kind: "llm", provider: "anthropic", model: "claude-haiku-4-5", baseURL: server.baseURL },
        deps(),
        loopId,
      )
    : undefined;
  const result = await runLoop({
    goal: "Run the staging migration",
    config: {
      // Two allowed, so the first iteration's outcome is not the iteration limit.
      stop: { maxIterations: 2, noProgressIterations: 0, ...(judge ? { scoreThreshold: 0.9 } : {}) },
      retry: { maxAttempts: 1 },
      health: { checkInterval: 0 },
      completion: withVerifier || judge ? {} : { allowNoEvidence: true },
      question: { policy: "ask" },
    },
    ports: { agent, scorers, ...(verifier ? { verifier } : {}) },
    deps: realEngineDeps(),
    onStep: (o: StepOutcome) => {
      statuses.push(o.snapshot.status);
    },
  });
  return { record: result.records[0]!, statuses };
}

describe("asked-a-question detection with a model judge", () => {
  it("the rules alone do not see this blocker", () => {
    expect(detectQuestion(`I have stopped here: ${BLOCKER}, and I will wait for them.`)).toBeNull();
  });

  it("the verifier's judgement flags it: the iteration asked, the loop needs attention", async () => {
    server.queue({
      text: JSON.stringify({ complete: false, reason: "Nothing was migrated.", asksOperator: `Provide ${BLOCKER}.` }),
    });
    const before = server.requests.length;
    const { record, statuses } = await run("judged", true);
    expect(server.requests.length - before).toBe(1);
    // The judge was asked, and shown the end of the answer.
    const sent = JSON.stringify(server.requests.at(-1)!.body);
    expect(sent).toContain("asksOperator");
    expect(sent).toContain(BLOCKER);
    expect(record).toMatchObject({ failureKind: "asked_question", question: `Provide ${BLOCKER}.` });
    expect(record.verification).toMatchObject({ status: "incomplete", question: `Provide ${BLOCKER}.` });
    expect(statuses[0]).toBe("needs_attention");
  });

  it("a verdict without a question leaves the iteration alone", async () => {
    server.queue({ text: JSON.stringify({ complete: false, reason: "Nothing was migrated.", asksOperator: null }) });
    const { record, statuses } = await run("not-judged", true);
    expect(record).toMatchObject({ failureKind: "evidence_failed", question: null });
    expect(statuses[0]).not.toBe("needs_attention");
  });

  it("an LLM judge scorer's judgement counts too", async () => {
    server.queue({
      text: JSON.stringify({ score: 0.1, rationale: "Nothing was migrated.", asksOperator: `Provide ${BLOCKER}.` }),
    });
    const { record, statuses } = await run("judge-scorer", false, true);
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain("asksOperator");
    expect(record).toMatchObject({ failureKind: "asked_question", question: `Provide ${BLOCKER}.` });
    expect(statuses[0]).toBe("needs_attention");
  });

  it("without a verifier only the rules apply", async () => {
    const before = server.requests.length;
    const { record, statuses } = await run("rules-only", false);
    expect(server.requests.length).toBe(before);
    expect(record).toMatchObject({ failureKind: "no_evidence", question: null });
    expect(statuses[0]).not.toBe("needs_attention");
  });
});
