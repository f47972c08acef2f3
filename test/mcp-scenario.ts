// What done-when 1 of issue 35 asks of an MCP client, written once and run
// over each transport (the SDK's in-memory pair, streamable HTTP against the
// route's handler, `ralph mcp` over stdio): start a loop whose real command
// agent asks a question, answer it, approve its completion gate. The agent is
// a real script in a real workspace, run by the real job runtime.
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Database } from "../server/db/client";
import { waitFor } from "./runtime-harness";

export const QUESTION = "Should I deploy to the staging database? Please confirm.";

/** A workspace holding the asking agent: asks first; once answered, ships (the keyword the scorer wants). */
export function askingWorkspace(root: string): string {
  const dir = mkdtempSync(join(root, "ws-"));
  writeFileSync(
    join(dir, "asks-then-ships.sh"),
    `#!/usr/bin/env bash\ninput=$(cat)\nif printf '%s' "$input" | grep -q "answered:"; then echo "Deployed to staging: RELEASED"; else echo "I read the deploy script."; echo; echo "${QUESTION}"; fi\n`,
  );
  chmodSync(join(dir, "asks-then-ships.sh"), 0o755);
  return dir;
}

export const askingDefinition = (workspace: string) => ({
  name: "mcp scenario",
  goal: "Deploy the release",
  workspace,
  agent: { kind: "command", argv: [join(workspace, "asks-then-ships.sh")], timeoutSeconds: 30 },
  scorers: [{ kind: "keyword", name: "released", keywords: ["RELEASED"] }],
  loop: {
    stop: { maxIterations: 4, scoreThreshold: 1, noProgressIterations: 0 },
    completion: { evidence: ["score"] },
    approvals: { beforeCompletion: { enabled: true, deadline: 3600, defaultAction: "reject" } },
  },
});

/** A demo loop that finishes its work at once and waits at its completion gate. */
export const GATED_DEMO = {
  goal: "needs a human",
  agent: { kind: "demo", delayMs: 0, failureRate: 0, stepsToComplete: 1 },
  scorers: [{ kind: "length", name: "length", min: 1 }],
  loop: {
    stop: { maxIterations: 5, scoreThreshold: 0.5 },
    completion: { evidence: ["score"] },
    approvals: { beforeCompletion: { enabled: true, deadline: 3600, defaultAction: "reject" } },
  },
};

export const loopStatus = (db: Database, id: string, status: string) =>
  waitFor(
    () => db.prisma.loop.findUniqueOrThrow({ where: { id } }),
    (loop) => loop.status === status,
    60_000,
  );

/** The operator's audit entries on a loop, in order: what the UI and MCP must agree on. */
export async function operatorTrail(db: Database, loopId: string, userId: string) {
  const events = await db.prisma.loopEvent.findMany({ where: { loopId, actorId: userId }, orderBy: { id: "asc" } });
  return events.map((e) => ({ type: e.type, actor: e.actor, reason: e.reason }));
}

type ToolAnswer = { isError?: boolean; structuredContent?: Record<string, unknown>; content: unknown };

export const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolAnswer;

/** A tool call that must succeed: a refusal fails the test with the server's words. */
async function succeed(client: Client, name: string, args: Record<string, unknown>) {
  const answer = await call(client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.content)}`);
  return answer;
}

/** Start → question → answer → gate → approve → completed, through MCP tools only. Returns the loop id. */
export async function runAskingScenario(client: Client, db: Database, workspace: string, tag: string) {
  const created = await succeed(client, "create", { ...askingDefinition(workspace), idempotencyKey: `create-${tag}` });
  const id = String(created.structuredContent!.id);
  await loopStatus(db, id, "needs_attention");
  const got = await succeed(client, "get", { id });
  const why = { answer: "the operator answered", approve: "looks right" };
  await succeed(client, "answer", {
    id,
    message: "Yes, staging.",
    reason: why.answer,
    idempotencyKey: `answer-${tag}`,
  });
  await loopStatus(db, id, "awaiting_approval");
  await succeed(client, "approve", { id, comment: "ship it", reason: why.approve, idempotencyKey: `approve-${tag}` });
  await loopStatus(db, id, "completed");
  return { id, got };
}
