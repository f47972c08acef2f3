/**
 * The one vocabulary for operator controls. A control is a stored request
 * (`ControlRequest`) carrying a command; its `kind` is the same word in the
 * database, the services, the engine and its events. Labels, availability
 * rules and audit text for each kind live in server/loops/control-rules.ts.
 */
import { z } from "zod";

export const controlKinds = [
  "interrupt",
  "kill",
  "resume",
  "force_handoff",
  "nudge",
  "approve",
  "reject",
  "request_changes",
  "terminate",
  "update_limits",
  "answer",
] as const;
export type ControlKind = (typeof controlKinds)[number];

const gateAnswer = { comment: z.string().optional(), gateId: z.string().optional() };

/** A command as stored and as applied; payload fields beside `kind`. */
export const controlCommandSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("interrupt") }),
  z.object({ kind: z.literal("kill") }),
  z.object({ kind: z.literal("resume") }),
  z.object({ kind: z.literal("force_handoff") }),
  z.object({ kind: z.literal("nudge"), message: z.string() }),
  z.object({ kind: z.literal("approve"), ...gateAnswer }),
  z.object({ kind: z.literal("reject"), ...gateAnswer }),
  z.object({ kind: z.literal("request_changes"), comment: z.string(), gateId: z.string().optional() }),
  /** `race_lost`: ended because another contender of its race won (the race's decision, never an operator's word). */
  z.object({ kind: z.literal("terminate"), stopType: z.enum(["explicit_stop", "race_lost"]).optional() }),
  /** A partial LoopConfig; re-validated as a whole before it applies. */
  z.object({ kind: z.literal("update_limits"), patch: z.unknown() }),
  /** The operator's answer to the agent's question; an empty one means "continue without answering". */
  z.object({ kind: z.literal("answer"), message: z.string() }),
]);
export type ControlCommand = z.infer<typeof controlCommandSchema>;

// Compile-time proof that the list and the schema name the same kinds.
const _sameKinds: [ControlCommand["kind"], ControlKind] extends [ControlKind, ControlCommand["kind"]] ? true : never =
  true;
void _sameKinds;

/** A stored operator request; the engine applies it at the next safe point. */
export interface ControlRequest {
  id: string;
  requestedAt: number;
  /** Who asked (user name, "system", ...), kept for the audit trail. */
  by: string;
  reason?: string;
  command: ControlCommand;
}

/** What became of a request; the driver stores it with the step that applied it. */
export interface ControlAck {
  requestId: string;
  outcome: "applied" | "rejected";
  note: string;
  at: number;
}
