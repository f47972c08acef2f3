/**
 * The MCP tools: each one is a tRPC procedure of the public API, called
 * through `createCaller` with the caller's own context, so its input schema,
 * role check, audit entry (who and why) and errors are the API's. A tool adds
 * only what MCP asks for: its name, a description, the spec's behaviour hints
 * and, when it changes something, an idempotency key.
 */
import { z } from "zod";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { appRouter } from "../api/root";

export interface McpToolSpec {
  name: string;
  title: string;
  description: string;
  /** The tRPC procedure it calls, e.g. `loops.controls.approve`. */
  procedure: string;
  /** MCP's hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint. */
  annotations: ToolAnnotations;
}

// Read-only tools change nothing: destructive and idempotent hints are moot (the spec reads them only when readOnlyHint is false).
const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
// Additive: stores a request or a loop, discards nothing. Idempotent through the key every call carries.
const ADDS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
// Ends or discards work in progress (an agent killed, an iteration cut short, a finished result rejected).
const ENDS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

const tool = (
  name: string,
  procedure: string,
  annotations: ToolAnnotations,
  title: string,
  description: string,
): McpToolSpec => ({ name, procedure, annotations, title, description });

export const MCP_TOOLS: readonly McpToolSpec[] = [
  tool(
    "list",
    "loops.list",
    READ,
    "List loops",
    "Loops with their status, cost and progress; filter by status, agent kind or text.",
  ),
  tool(
    "get",
    "loops.byId",
    READ,
    "Get a loop",
    "One loop: status, health, limits, pending question or approval, and which controls apply now.",
  ),
  tool(
    "report",
    "loops.exportReport",
    READ,
    "Loop report",
    "The loop's report (redacted as a share link is) and its latest iteration.",
  ),
  tool(
    "create",
    "loops.create",
    ADDS,
    "Create a loop",
    "Creates a loop from a definition; starts it unless start is false.",
  ),
  tool("start", "loops.controls.start", ADDS, "Start a loop", "Starts a draft loop."),
  tool(
    "interrupt",
    "loops.controls.interrupt",
    ENDS,
    "Interrupt",
    "Pauses the loop at its next safe point; the running iteration finishes first.",
  ),
  tool(
    "kill",
    "loops.controls.kill",
    ENDS,
    "Kill",
    "Stops the running agent now (its iteration is recorded interrupted) and pauses the loop.",
  ),
  tool("resume", "loops.controls.resume", ADDS, "Resume", "Resumes a paused loop."),
  tool(
    "handoff",
    "loops.controls.forceHandoff",
    ADDS,
    "Hand off",
    "Ends the agent's context after this iteration; the next starts fresh from the handoff notes.",
  ),
  tool("nudge", "loops.controls.nudge", ADDS, "Nudge", "Adds an operator note to the next iteration's prompt."),
  tool(
    "approve",
    "loops.controls.approve",
    ADDS,
    "Approve",
    "Approves the loop's open approval gate, with an optional comment.",
  ),
  tool(
    "reject",
    "loops.controls.reject",
    ENDS,
    "Reject",
    "Rejects the loop's open approval gate, with an optional comment.",
  ),
  tool(
    "answer",
    "loops.controls.answer",
    ADDS,
    "Answer",
    "Answers the question the agent asked; the loop continues with the answer in its next prompt.",
  ),
  // Additive: the target only ever moves forward, by a compare-and-swap after the evidence passed again on
  // the rebased result; queuing a loop that is queued keeps its place (docs/merge-queue.md).
  tool(
    "land",
    "landing.land",
    ADDS,
    "Land",
    "Queues the loop's branch to land on a target branch (default: the branch the repository's checkout has). The merge queue rebases it onto the target's current head, re-runs the loop's evidence on the result and only then moves the target; a conflict or a red check ends in needs review. Answers the queue entry and its position.",
  ),
];

/** The field every mutating tool takes on top of the procedure's input. */
export const idempotencyKeyField = z
  .string()
  .trim()
  .min(8)
  .max(200)
  .describe(
    "Made once per request you mean: a retry with the same key and arguments gets the first answer and changes nothing more",
  );

type Procedure = { _def: { type: string; inputs: unknown[] } };
const procedures = (appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures;

/** The procedure's own input schema (one object), as the API validates it. */
export function procedureInput(path: string): z.ZodObject {
  const procedure = procedures[path];
  const input = procedure?._def.inputs[0];
  if (!(input instanceof z.ZodObject)) throw new Error(`MCP tool: ${path} has no object input`);
  return input;
}

export const isMutating = (spec: McpToolSpec) => spec.annotations.readOnlyHint !== true;

/** The tool's input schema: the procedure's, plus the idempotency key when it changes something. */
export const toolInput = (spec: McpToolSpec): z.ZodObject =>
  isMutating(spec)
    ? procedureInput(spec.procedure).extend({ idempotencyKey: idempotencyKeyField })
    : procedureInput(spec.procedure);
