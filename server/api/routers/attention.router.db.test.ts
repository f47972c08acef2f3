// Misbehaving agents as real processes (the fixture scripts), driven by the
// real runtime on SQLite and PostgreSQL, controlled through the tRPC caller:
// one that asks a question and changes nothing, one that lies about being
// done, one that hangs past its timeouts. And a loop that could never
// complete is refused at creation.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../../test/db-providers";
import { asOperator, createHarness, waitFor, type Harness, type ScriptedAgent } from "../../../test/runtime-harness";
import { fixture, tempRoot, testDeps } from "../../agents/fixtures/harness";
import { createAgent } from "../../agents/registry";
import { createLoop } from "../../loops/loop-create.service";
import { NO_EVIDENCE_MESSAGE } from "../../loops/loop-evidence";
import { createContext } from "../context";
import { createCaller } from "../root";

const tmp = tempRoot("ralph-attention-");
afterAll(() => tmp.cleanup());

/** A fixture script run by the real command executor, in a workspace of its own per loop. */
function scriptAgent(script: string, timeoutSeconds = 30): ScriptedAgent {
  const agent = createAgent(
    { kind: "command", argv: [fixture(script)], timeoutSeconds, killGraceMs: 300 },
    testDeps(tmp.root),
  );
  return (req) => {
    mkdirSync(join(tmp.root, req.loopId), { recursive: true });
    return agent.run(req);
  };
}

describeEachProvider("agents that ask, lie and hang", ({ db }) => {
  let h: Harness;
  afterEach(async () => h?.stop());

  const setup = () => {
    h = createHarness(db(), {
      asking: scriptAgent("asking-agent.sh"),
      lying: scriptAgent("lying-agent.sh"),
      hanging: scriptAgent("hang-with-grandchild.sh", 2),
    });
    return createCaller(createContext({ services: h.services }));
  };
  const start = async (agentKind: string, engineConfig: unknown) =>
    (
      await createLoop(
        h.services,
        { goal: "make ./test.sh pass", agentKind, definition: {}, engineConfig, start: true },
        asOperator(),
      )
    ).id;
  const loopRow = (id: string) => db().prisma.loop.findUniqueOrThrow({ where: { id } });
  const statusIs = (id: string, status: string) =>
    waitFor(
      () => loopRow(id),
      (l) => l.status === status,
      60_000,
    );
  const iterations = (id: string) =>
    db().prisma.iteration.findMany({ where: { loopId: id }, orderBy: [{ number: "asc" }, { attempt: "asc" }] });

  it("the stopper waits in needs_attention; the operator's answer reaches the next prompt, with who and why", async () => {
    const api = setup();
    const id = await start("asking", { stop: { maxIterations: 5, scoreThreshold: 0.9, noProgressIterations: 0 } });
    await statusIs(id, "needs_attention");
    const [first] = await iterations(id);
    expect(first).toMatchObject({
      askedQuestion: true,
      question: "Should add() also accept strings? Please confirm before I change it.",
      failureKind: "asked_question",
    });
    const detail = await api.loops.byId({ id });
    expect(detail.pendingQuestion).toMatchObject({ question: first!.question, iteration: 1 });
    expect(detail.availability.answer).toEqual({ allowed: true, reason: null });
    expect(detail.availability.approve.allowed).toBe(false);

    const answered = await api.loops.controls.answer({ id, message: "Numbers only.", reason: "product call" });
    expect(answered).toMatchObject({ outcome: "applied", status: "queued" });
    // It asks again after the answered iteration, and waits again instead of re-sending the prompt.
    await waitFor(
      () => iterations(id),
      (rows) => rows.length >= 2,
      60_000,
    );
    await statusIs(id, "needs_attention");
    const second = (await iterations(id))[1]!;
    expect(second.input).toContain(
      "[Agent question]\nYour previous message asked:\n> Should add() also accept strings? Please confirm before I change it.\nThe operator answered:",
    );
    expect(second.input).toContain("answered:\n> Numbers only.");
    expect(h.calls).toHaveLength(2);
    const audit = await db().prisma.loopEvent.findMany({
      where: { loopId: id, type: { in: ["attention_needed", "control_applied"] } },
      orderBy: { id: "asc" },
    });
    expect(audit.map((e) => e.type)).toEqual(["attention_needed", "control_applied", "attention_needed"]);
    expect(audit[1]).toMatchObject({ reason: "product call", actor: expect.stringMatching(/\S/) });
    expect(audit[1]!.payload).toMatchObject({ command: "answer" });

    // "Continue without answering": an empty answer sends the standing instruction.
    await api.loops.controls.answer({ id });
    await waitFor(
      () => iterations(id),
      (rows) => rows.length >= 3,
      60_000,
    );
    expect((await iterations(id))[2]!.input).toContain("No operator is answering. Make a reasonable choice");
    await api.loops.controls.terminate({ id });
    await statusIs(id, "stopped");
    const late = await api.loops.controls.answer({ id, message: "too late" }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(TRPCError);
    expect((late as TRPCError).code).toBe("CONFLICT");
  }, 120_000);

  it("a liar's claims are flagged and told back; a hung agent is cut at the iteration timeout, and cannot be answered", async () => {
    const api = setup();
    const liar = await start("lying", {
      stop: { maxIterations: 2, scoreThreshold: 0.9, noProgressIterations: 0 },
      completion: { evidence: ["score"] },
    });
    const hung = await start("hanging", {
      stop: { maxIterations: 1, iterationTimeout: 3, maxConsecutiveFailures: 0 },
      retry: { maxAttempts: 5, strategy: "fixed", fixedDelayMs: 100 },
      health: { checkInterval: 0 },
      question: { policy: "ask" },
    });
    await waitFor(
      () => loopRow(hung),
      (l) => l.inflightIteration === 1,
      30_000,
    );
    const early = await api.loops.controls.answer({ id: hung, message: "?" }).catch((e: unknown) => e);
    expect((early as TRPCError).code).toBe("CONFLICT");
    expect((early as TRPCError).message).toContain("the loop is not waiting for an answer");

    await statusIs(liar, "stopped");
    const lies = await iterations(liar);
    expect(lies).toHaveLength(2);
    for (const row of lies) {
      expect(row).toMatchObject({ claimedDone: true, claimMismatch: true, failureKind: "evidence_failed" });
      expect(row.askedQuestion).toBe(false);
    }
    expect(lies[1]!.input).toContain("[Claim rejected]");

    await statusIs(hung, "stopped");
    const [cut] = await iterations(hung);
    expect(cut).toMatchObject({ status: "error", failureKind: "timeout" });
    expect(cut!.error).toContain("timed out after 3s");
    // 3 s plus the process group's kill grace and a loaded machine; never the 5 attempts x 2 s it would take otherwise.
    expect(cut!.durationMs).toBeLessThan(9_000);
  }, 120_000);

  it("a loop with no evidence source is refused at creation unless allowNoEvidence", async () => {
    const api = setup();
    const definition = { goal: "g", agent: { kind: "command" as const, argv: ["./agent.sh"] }, start: false };
    const refused = await api.loops.create(definition).catch((e: unknown) => e);
    expect((refused as TRPCError).code).toBe("BAD_REQUEST");
    expect((refused as TRPCError).message).toBe(NO_EVIDENCE_MESSAGE);
    const allowed = await api.loops.create({ ...definition, loop: { completion: { allowNoEvidence: true } } });
    expect(allowed.id).toEqual(expect.any(String));
  });
});
