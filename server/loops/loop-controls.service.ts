// Operator controls. Each request is decided against the stored loop
// (control-plan.ts) and gets exactly one outcome with one audit entry:
// - on an idle loop (paused, waiting, awaiting approval, queued) it is applied
//   at once, with the runtime's own safe-point logic, in one transaction
//   fenced by the loop's version (a runtime that claims the loop meanwhile
//   makes the write fail, and the request is decided again);
// - while a runtime holds the loop it is stored, and that runtime applies it
//   at its next safe point (a kill within one heartbeat);
// - a request that makes no sense now is recorded as refused and answers CONFLICT.
import {
  applyConfigPatch,
  asLoopRowStatus,
  buildCheckpoint,
  controlCommandSchema,
  LoopConfigError,
  type ControlCommand,
  type ControlRequest,
  type LoopRowStatus,
} from "../engine";
import {
  controlTarget,
  finalizeDraft,
  recordRefusedControl,
  storeDeferredControl,
  type NewControlRequest,
} from "../db/controls.repo";
import { StaleLoopError } from "../db/step-errors";
import { conflict, invalidInput, notFound } from "../errors";
import { notifyEventsWritten } from "../events/event-wakeups";
import { planControl, type ControlPlan } from "./control-plan";
import { startControlTimings } from "./control-timings";
import { CONTROL_LABELS, displayStatus, isTerminal } from "./control-rules";
import { actorName, type ActingAs, type LoopServices } from "./loop-services";
import { readStoredCheckpoint, type StoredSnapshot } from "./loop-snapshot";
import { checkpointRow, decidedApprovals, eventRows, loopPatch, nextRunAtFor, openApproval } from "./step-rows";

export type { ControlCommand } from "../engine";

export interface ControlOutcome {
  requestId: string;
  /** applied: it took effect already; stored: the runtime applies it at its next safe point. */
  outcome: "applied" | "stored";
  note: string;
  /** The loop's status after the request. */
  status: LoopRowStatus;
}

const ATTEMPTS = 8;

function payloadOf(command: ControlCommand): Record<string, unknown> | undefined {
  const { kind: _kind, ...rest } = command;
  return Object.keys(rest).length ? rest : undefined;
}

export async function requestControl(
  svc: LoopServices,
  loopId: string,
  input: ControlCommand,
  acting: ActingAs,
): Promise<ControlOutcome> {
  const parsed = controlCommandSchema.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error.issues[0]?.message ?? "invalid control");
  const command = parsed.data;
  const actor = actorName(acting.actor);
  const actorId = acting.actor.id;
  const reason = acting.reason?.trim() || null;
  const label = CONTROL_LABELS[command.kind].toLowerCase();
  const timings = startControlTimings(loopId, command.kind);

  // The loop may change between reading and writing (a runtime claims it,
  // another control lands): the write is fenced, and then we decide again.
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // A loop going idle and being claimed again in lockstep with our retries: step out of phase.
    if (attempt > 0)
      await new Promise((resolve) => setTimeout(resolve, Math.floor(svc.engine.random() * 10 * attempt)));
    const target = await controlTarget(svc.db.prisma, loopId);
    timings.mark(`read${attempt}`);
    if (!target) throw notFound("Loop", loopId);
    const { loop } = target;
    const stored = await readSnapshot(target.checkpoint, svc);
    timings.mark(`snapshot${attempt}`);
    const snapshot = stored?.snapshot ?? null;
    if (command.kind === "update_limits" && snapshot) {
      try {
        applyConfigPatch(snapshot.config, command.patch);
      } catch (error) {
        throw invalidInput(error instanceof LoopConfigError ? error.issues.join("; ") : String(error));
      }
    }
    const now = svc.engine.now();
    const request: ControlRequest = {
      id: svc.engine.newId(),
      requestedAt: now,
      by: actor,
      ...(reason ? { reason } : {}),
      command,
    };
    const row = {
      id: request.id,
      loopId,
      kind: command.kind,
      payload: payloadOf(command),
      actorId,
      actor,
      reason,
    };
    const audit = (type: string, why: string | null, extra: Record<string, unknown>) => ({
      loopId,
      type,
      actorId,
      actor,
      reason: why,
      payload: { requestId: request.id, command: command.kind, ...payloadOf(command), ...extra },
    });
    const plan = planControl(
      { status: loop.status, leased: loop.leaseOwner !== null, pendingKinds: target.pendingKinds, snapshot },
      request,
      now,
    );

    switch (plan.kind) {
      case "refuse":
        await recordRefusedControl(
          svc.db.prisma,
          { ...row, result: plan.reason },
          audit("control_rejected", plan.reason, {}),
        );
        void notifyEventsWritten(svc.db);
        throw conflict(`Cannot ${label}: ${plan.reason}`);
      case "finalize": {
        const why = reason ?? "terminated before it started";
        const ended = await finalizeDraft(
          svc.db.prisma,
          { loopId, version: loop.version },
          { reason: why, at: new Date(now) },
          { ...row, result: "terminated before it started" },
          [
            audit("control_applied", reason ?? "terminate", {}),
            {
              loopId,
              type: "halted",
              actorId,
              actor,
              reason: why,
              payload: { stopType: "explicit_stop", status: "stopped" },
            },
          ],
        );
        if (!ended) continue;
        void notifyEventsWritten(svc.db);
        return { requestId: request.id, outcome: "applied", note: "terminated before it started", status: "stopped" };
      }
      case "defer": {
        const stored = await storeDeferredControl(
          svc.db.prisma,
          loopId,
          loop.leaseOwner ? "leased" : { version: loop.version },
          row,
          // What every open tab shows from this event alone, without a refetch: the request
          // as pending, and the status it makes ("interrupting" while a kill waits).
          audit("control_requested", reason, {
            outcome: "stored",
            note: "waiting for the runtime's next safe point",
            displayStatus: displayStatus({ status: loop.status, pendingKinds: [...target.pendingKinds, command.kind] }),
          }),
        );
        timings.mark(`storeDeferred${attempt}`);
        if (!stored) continue;
        void notifyEventsWritten(svc.db);
        timings.done({ outcome: "stored", attempts: attempt + 1 });
        // Nobody holds the loop (its checkpoint is unreadable), or the runtime that did is gone
        // (its lease ran out): get one to apply it.
        if (!loop.leaseOwner || (loop.leaseExpiresAt && loop.leaseExpiresAt.getTime() < now)) {
          svc.dispatcher.dispatch(loopId);
        }
        return {
          requestId: request.id,
          outcome: "stored",
          note: "stored; the runtime applies it at its next safe point",
          status: asLoopRowStatus(loop.status),
        };
      }
      case "apply": {
        const applied = await applyNow(svc, loopId, loop.version, plan, row, now, stored);
        timings.mark(`applyNow${attempt}`);
        if (!applied) continue;
        void notifyEventsWritten(svc.db);
        timings.done({ outcome: "applied", attempts: attempt + 1 });
        if (plan.wake) svc.dispatcher.dispatch(loopId);
        const at = nextRunAtFor(plan.decision);
        if (at) svc.dispatcher.dispatchAt(loopId, at);
        return { requestId: request.id, outcome: "applied", note: plan.ack.note, status: plan.status };
      }
    }
  }
  throw conflict("The loop kept changing; try again");
}

/**
 * The loop's current snapshot, or null when its checkpoint cannot be restored:
 * then the request is stored for the runtime, which fails such a loop visibly
 * (and answers the request), rather than refusing an operator's terminate.
 */
async function readSnapshot(row: { loopId: string; state: string; sha256: string } | null, svc: LoopServices) {
  if (!row) return null;
  try {
    return await readStoredCheckpoint(svc.db.loopStore, row, svc.engine);
  } catch {
    return null;
  }
}

/** Stores an applied control as the runtime would store a safe point; false when the loop moved on. */
async function applyNow(
  svc: LoopServices,
  loopId: string,
  version: number,
  plan: Extract<ControlPlan, { kind: "apply" }>,
  row: Omit<NewControlRequest, "status" | "result">,
  now: number,
  stored: StoredSnapshot | null,
): Promise<boolean> {
  const at = new Date(now);
  // The output is the restored one, still in the row the stored checkpoint cited.
  const sameOutput = stored !== null && stored.snapshot.last.output === plan.snapshot.last.output;
  const checkpoint = checkpointRow(buildCheckpoint(plan.snapshot, svc.engine), {
    sha256: svc.engine.sha256,
    outputRow: sameOutput ? stored.outputRow : null,
    stored: stored?.parts,
  });
  const actors = new Map([[row.actor, row.actorId]]);
  try {
    await svc.db.loopStore.commitStep(
      {
        loopId,
        fence: { version },
        loop: { ...loopPatch(plan.snapshot, plan.decision, at), status: plan.status },
        ended: isTerminal(plan.status),
        checkpoint: checkpoint.row,
        events: eventRows(plan.events, actors),
        acks: [],
        newControls: [{ ...row, status: plan.ack.outcome, result: plan.ack.note }],
        openApproval: openApproval(plan.snapshot, plan.decision),
        decidedApprovals: decidedApprovals(plan.events, actors),
      },
      // A click commits at once, never queued behind runtimes' batches of other loops.
      { urgent: true },
    );
    return true;
  } catch (error) {
    if (error instanceof StaleLoopError) return false;
    throw error;
  }
}
