// Operator controls: validated, stored as requests with an audit event, and
// applied by the runtime at its next safe point. Idempotent where it can be:
// a repeated resume is recorded as a no-op, not an error.
import { applyConfigPatch, LoopConfigError, restoreFromCheckpoint } from "../engine";
import { insertControlRequest } from "../db/controls.repo";
import { appendEvents } from "../db/events.repo";
import { currentCheckpoint } from "../db/loop-steps.repo";
import { inTransaction } from "../db/tx";
import { conflict, invalidInput, notFound } from "../errors";
import { decideControl, type ControlKind } from "./control-rules";
import { actorName, type ActingAs, type LoopServices } from "./loop-services";

export type ControlCommand =
  | { kind: "interrupt" | "kill" | "resume" | "force_handoff" | "terminate" }
  | { kind: "nudge"; message: string }
  | { kind: "approve" | "reject"; comment?: string }
  | { kind: "request_changes"; comment: string }
  | { kind: "update_limits"; patch: Record<string, unknown> };

export interface ControlOutcome {
  requestId: string;
  outcome: "stored" | "noop";
  note: string;
  status: string;
}

const APPROVAL_STATUS: Record<string, string> = { approve: "approved", reject: "rejected", request_changes: "changes_requested" };

function payloadOf(command: ControlCommand): Record<string, unknown> | undefined {
  const { kind: _kind, ...rest } = command;
  return Object.keys(rest).length ? rest : undefined;
}

async function validateLimits(svc: LoopServices, loopId: string, patch: Record<string, unknown>) {
  const row = await currentCheckpoint(svc.db.prisma, loopId);
  if (!row) throw conflict("The loop has no checkpoint yet");
  const snapshot = restoreFromCheckpoint(JSON.parse(row.state), row.sha256);
  try {
    applyConfigPatch(snapshot.config, patch);
  } catch (error) {
    throw invalidInput(error instanceof LoopConfigError ? error.issues.join("; ") : String(error));
  }
}

export async function requestControl(svc: LoopServices, loopId: string, command: ControlCommand, acting: ActingAs): Promise<ControlOutcome> {
  if (command.kind === "update_limits") await validateLimits(svc, loopId, command.patch);
  const actor = actorName(acting.actor);
  const reason = acting.reason?.trim() || null;
  // A concurrent control may change the status between our read and write; retry then.
  for (let attempt = 0; attempt < 5; attempt++) {
    const result = await inTransaction(svc.db.prisma, async (tx) => {
      const loop = await tx.loop.findUnique({ where: { id: loopId }, select: { status: true, version: true } });
      if (!loop) throw notFound("Loop", loopId);
      const pendingInterrupt = await tx.controlRequest.count({
        where: { loopId, status: "pending", kind: { in: ["interrupt", "kill"] } },
      });
      const verdict = decideControl(loop.status, command.kind as ControlKind, { interrupt: pendingInterrupt > 0 });
      const requestId = svc.engine.newId();
      const base = { id: requestId, loopId, kind: command.kind, payload: payloadOf(command), actorId: acting.actor.id, actor, reason };
      const event = (outcome: string, note: string) =>
        appendEvents(tx, [
          { loopId, type: "control_requested", actorId: acting.actor.id, actor, reason, payload: { requestId, command: command.kind, outcome, note, ...payloadOf(command) } },
        ]);

      if (verdict.kind === "conflict") {
        await insertControlRequest(tx, { ...base, status: "rejected", result: verdict.why });
        await event("rejected", verdict.why);
        return { conflict: verdict.why } as const;
      }
      if (verdict.kind === "noop") {
        await insertControlRequest(tx, { ...base, status: "applied", result: `no-op: ${verdict.why}` });
        await event("noop", verdict.why);
        return { outcome: { requestId, outcome: "noop", note: verdict.why, status: loop.status } satisfies ControlOutcome, wake: false } as const;
      }
      let status = loop.status;
      if (verdict.kind === "finalize") {
        status = "stopped";
        const done = await tx.loop.updateMany({
          where: { id: loopId, version: loop.version },
          data: { status, stopType: "explicit_stop", stopReason: reason ?? "terminated before it started", finishedAt: new Date(svc.engine.now()), version: { increment: 1 } },
        });
        if (done.count !== 1) return { retry: true } as const;
        await insertControlRequest(tx, { ...base, status: "applied", result: "terminated before it started" });
      } else {
        if (verdict.wake) {
          status = "queued";
          const woke = await tx.loop.updateMany({
            where: { id: loopId, version: loop.version },
            data: { status, nextRunAt: null, version: { increment: 1 } },
          });
          if (woke.count !== 1) return { retry: true } as const;
        }
        await insertControlRequest(tx, base);
        if (command.kind in APPROVAL_STATUS) {
          await tx.approval.updateMany({
            where: { loopId, status: "pending" },
            data: {
              status: APPROVAL_STATUS[command.kind]!,
              decidedAt: new Date(svc.engine.now()),
              decidedById: acting.actor.id,
              decidedBy: actor,
              comment: "comment" in command ? (command.comment ?? null) : null,
            },
          });
        }
      }
      await event("stored", "waiting for the runtime's next safe point");
      return {
        outcome: { requestId, outcome: "stored", note: "stored; the runtime applies it at its next safe point", status } satisfies ControlOutcome,
        wake: verdict.kind === "store" && verdict.wake,
      } as const;
    });
    if ("retry" in result) continue;
    if ("conflict" in result) throw conflict(`Cannot ${command.kind.replace("_", " ")}: ${result.conflict}`);
    if (result.wake) svc.dispatcher.dispatch(loopId);
    return result.outcome;
  }
  throw conflict("The loop kept changing; try again");
}
