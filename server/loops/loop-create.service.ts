// Creating, starting and forking loops.
import { buildCheckpoint, createLoop as createSnapshot, parseLoopConfig, restoreFromCheckpoint, type LoopSnapshot } from "../engine";
import { appendEvents } from "../db/events.repo";
import { inTransaction, type JsonInput } from "../db/tx";
import { conflict, invalidInput, notFound } from "../errors";
import { checkpointRow, loopPatch } from "../jobs/step-mapping";
import { storedDefinition, type LoopDefinition } from "./loop-definition";
import { actorName, type ActingAs, type LoopServices } from "./loop-services";

export interface NewLoop {
  goal: string;
  name?: string;
  agentKind: string;
  /** The validated loop definition (agent, scorers, verifier, ...), stored as the loop's config. */
  definition: Record<string, unknown>;
  /** The engine configuration (limits, budget, handoff, health, gates). */
  engineConfig: unknown;
  start: boolean;
}

async function insertLoop(
  svc: LoopServices,
  snapshot: LoopSnapshot,
  input: NewLoop,
  acting: ActingAs,
  extra: { forkedFromId?: string; forkedFromIteration?: number; eventType: string; reason: string },
) {
  const now = new Date(svc.engine.now());
  const checkpoint = buildCheckpoint(snapshot, svc.engine);
  const patch = loopPatch(snapshot, { kind: "run" }, now);
  await inTransaction(svc.db.prisma, async (tx) => {
    await tx.loop.create({
      data: {
        ...patch,
        id: snapshot.loopId,
        name: input.name ?? "",
        goal: snapshot.goal,
        agentKind: input.agentKind,
        config: input.definition as JsonInput,
        status: input.start ? "queued" : "draft",
        nextRunAt: null,
        checkpointId: checkpoint.id,
        createdById: acting.actor.id,
        forkedFromId: extra.forkedFromId ?? null,
        forkedFromIteration: extra.forkedFromIteration ?? null,
        createdAt: now,
        lastActivityAt: now,
      },
    });
    await tx.checkpoint.create({ data: { ...checkpointRow(checkpoint), loopId: snapshot.loopId } });
    await appendEvents(tx, [
      {
        loopId: snapshot.loopId,
        type: extra.eventType,
        actorId: acting.actor.id,
        actor: actorName(acting.actor),
        reason: acting.reason ?? extra.reason,
        payload: { agentKind: input.agentKind, start: input.start, forkedFromId: extra.forkedFromId, forkedFromIteration: extra.forkedFromIteration },
      },
    ]);
  });
  if (input.start) svc.dispatcher.dispatch(snapshot.loopId);
  return { id: snapshot.loopId };
}

export async function createLoop(svc: LoopServices, input: NewLoop, acting: ActingAs) {
  let snapshot: LoopSnapshot;
  try {
    snapshot = createSnapshot(input.goal, input.engineConfig ?? {}, svc.engine);
  } catch (error) {
    throw invalidInput(error instanceof Error ? error.message : "invalid loop configuration");
  }
  return insertLoop(svc, snapshot, input, acting, { eventType: "loop_created", reason: "created" });
}

/** A draft loop starts; starting a loop that already runs is a no-op. */
export async function startLoop(svc: LoopServices, loopId: string, acting: ActingAs) {
  const loop = await svc.db.prisma.loop.findUnique({ where: { id: loopId } });
  if (!loop) throw notFound("Loop", loopId);
  if (loop.status !== "draft") {
    if (["completed", "failed", "stopped", "cancelled"].includes(loop.status)) {
      throw conflict(`The loop has ended (${loop.status}); fork it to run again`);
    }
    return { id: loopId, changed: false };
  }
  await inTransaction(svc.db.prisma, async (tx) => {
    const updated = await tx.loop.updateMany({
      where: { id: loopId, status: "draft" },
      data: { status: "queued", version: { increment: 1 } },
    });
    if (updated.count !== 1) return;
    await appendEvents(tx, [
      { loopId, type: "loop_start_requested", actorId: acting.actor.id, actor: actorName(acting.actor), reason: acting.reason ?? "start" },
    ]);
  });
  svc.dispatcher.dispatch(loopId);
  return { id: loopId, changed: true };
}

/** A new loop that continues from the checkpoint written after `iteration`. */
export async function forkLoop(svc: LoopServices, loopId: string, iteration: number, start: boolean, acting: ActingAs) {
  const source = await svc.db.prisma.loop.findUnique({ where: { id: loopId } });
  if (!source) throw notFound("Loop", loopId);
  const row = await svc.db.prisma.checkpoint.findFirst({
    where: { loopId, iteration },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  if (!row) throw notFound(`Checkpoint after iteration ${iteration} of loop`, loopId);
  const restored = restoreFromCheckpoint(JSON.parse(row.state), row.sha256);
  const forkId = svc.engine.newId();
  // The fork inherits state and history but not the source's ending or pending decisions.
  const snapshot: LoopSnapshot = {
    ...restored,
    loopId: forkId,
    config: parseLoopConfig(restored.config),
    status: "initializing",
    halt: null,
    gate: null,
    pause: null,
  };
  return insertLoop(
    svc,
    snapshot,
    { goal: source.goal, name: source.name ? `${source.name} (fork)` : "", agentKind: source.agentKind, definition: source.config as Record<string, unknown>, engineConfig: snapshot.config, start },
    acting,
    { forkedFromId: loopId, forkedFromIteration: iteration, eventType: "loop_forked", reason: `forked from iteration ${iteration}` },
  );
}

/** Creates a loop from a validated definition (the API's and the form's shape). */
export function createLoopFromDefinition(svc: LoopServices, definition: LoopDefinition, start: boolean, acting: ActingAs) {
  return createLoop(
    svc,
    {
      goal: definition.goal,
      name: definition.name,
      agentKind: definition.agent.kind,
      definition: storedDefinition(definition),
      engineConfig: definition.loop,
      start,
    },
    acting,
  );
}
