// Creating, starting and forking loops.
import { buildCheckpoint, createLoop as createSnapshot, parseLoopConfig, type LoopSnapshot } from "../engine";
import { checkpointAfterIteration } from "../db/checkpoints.repo";
import { iterationSnapshotSha } from "../db/iterations.repo";
import { appendEvents } from "../db/events.repo";
import { insertLoop as insertLoopRow, loopById, queueDraftLoop } from "../db/loops.repo";
import { inTransaction, type JsonInput } from "../db/tx";
import { conflict, invalidInput, notFound } from "../errors";
import { isStorageConflict } from "../db/storage-errors";
import { notifyEventsWritten } from "../events/event-wakeups";
import { loadCurrentSnapshot, restoreStoredCheckpoint } from "./loop-snapshot";
import { storedDefinition, type LoopDefinition } from "./loop-definition";
import { checkpointRow, loopPatch } from "./step-rows";
import { assertEvidenceSource, assertFallbackAgent } from "./loop-evidence";
import { assertLoopPolicy, storedPolicyInput } from "./loop-policy.service";
import { workspaceSourceOf } from "./ports-factory";
import { assertPreflight, linkStoredSecrets } from "./loop-preflight.service";
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
  /** The race this loop is a contender in (race-create.service.ts). */
  raceId?: string;
}

async function insertLoop(
  svc: LoopServices,
  snapshot: LoopSnapshot,
  input: NewLoop,
  acting: ActingAs,
  extra: { forkedFromId?: string; forkedFromIteration?: number; eventType: string; reason: string },
) {
  const now = new Date(svc.engine.now());
  // A new loop (a fork too) stores its whole checkpoint: it has no parts nor iteration rows of its own yet.
  const checkpoint = checkpointRow(buildCheckpoint(snapshot, svc.engine), { sha256: svc.engine.sha256 }).row;
  const patch = loopPatch(snapshot, { kind: "run" }, now);
  await inTransaction(svc.db.prisma, async (tx) => {
    await insertLoopRow(
      tx,
      {
        ...patch,
        id: snapshot.loopId,
        name: input.name ?? "",
        goal: snapshot.goal,
        agentKind: input.agentKind,
        config: input.definition as JsonInput,
        status: input.start ? "queued" : "draft",
        nextRunAt: null,
        createdById: acting.actor.id,
        forkedFromId: extra.forkedFromId ?? null,
        forkedFromIteration: extra.forkedFromIteration ?? null,
        raceId: input.raceId ?? null,
        createdAt: now,
        lastActivityAt: now,
      },
      checkpoint,
    );
    await appendEvents(tx, [
      {
        loopId: snapshot.loopId,
        type: extra.eventType,
        actorId: acting.actor.id,
        actor: actorName(acting.actor),
        reason: acting.reason ?? extra.reason,
        payload: {
          agentKind: input.agentKind,
          start: input.start,
          forkedFromId: extra.forkedFromId,
          forkedFromIteration: extra.forkedFromIteration,
          raceId: input.raceId,
        },
      },
    ]);
  });
  void notifyEventsWritten(svc.db);
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
  const loop = await loopById(svc.db.prisma, loopId);
  if (!loop) throw notFound("Loop", loopId);
  if (loop.status !== "draft") {
    if (["completed", "failed", "stopped", "cancelled"].includes(loop.status)) {
      throw conflict(`The loop has ended (${loop.status}); fork it to run again`);
    }
    return { id: loopId, changed: false };
  }
  const queued = await inTransaction(svc.db.prisma, async (tx) => {
    if (!(await queueDraftLoop(tx, loopId))) return false;
    await appendEvents(tx, [
      {
        loopId,
        type: "loop_start_requested",
        actorId: acting.actor.id,
        actor: actorName(acting.actor),
        reason: acting.reason ?? "start",
      },
    ]);
    return true;
  });
  if (queued) void notifyEventsWritten(svc.db);
  svc.dispatcher.dispatch(loopId);
  return { id: loopId, changed: true };
}

/**
 * The fork a repeated request already made (a double click, a retried call): the caller's
 * request id is the fork's own id, so the database's key makes a second one impossible.
 */
async function forkMadeBy(svc: LoopServices, requestId: string, sourceId: string): Promise<{ id: string } | null> {
  const made = await loopById(svc.db.prisma, requestId);
  if (!made) return null;
  if (made.forkedFromId !== sourceId) throw conflict("This request id was used for another loop");
  return { id: made.id };
}

/**
 * A new loop that continues from the checkpoint written after `iteration`.
 * `requestId` (a UUID the caller makes once per fork it means) makes it
 * idempotent: the same request makes one fork, however often it arrives.
 */
export async function forkLoop(
  svc: LoopServices,
  loopId: string,
  iteration: number,
  start: boolean,
  acting: ActingAs,
  requestId?: string,
  /** A loop sent back to work (merge queue): where it starts, the note for its next iteration, room to run. */
  resume?: { startAt: string; nudge: string; moreIterations: number },
) {
  if (requestId) {
    const made = await forkMadeBy(svc, requestId, loopId);
    if (made) return made;
  }
  const source = await loopById(svc.db.prisma, loopId);
  if (!source) throw notFound("Loop", loopId);
  // The fork runs with the forking user's rights: what needs an admin stays with admins.
  await assertLoopPolicy(svc.db, storedPolicyInput(source.config), acting);
  const row = await checkpointAfterIteration(svc.db.prisma, loopId, iteration);
  if (!row) throw notFound(`Checkpoint after iteration ${iteration} of loop`, loopId);
  const restored = await restoreStoredCheckpoint(svc.db.loopStore, row, svc.engine);
  // The limits in effect now, operator edits included (they may postdate the forked checkpoint).
  const current = await loadCurrentSnapshot(svc.db.loopStore, loopId, svc.engine);
  const config = parseLoopConfig((current ?? restored).config);
  const forkId = requestId ?? svc.engine.newId();
  // The fork's worktree starts at the forked iteration's commit, in the source's repository.
  const snapshotSha = resume?.startAt ?? (await iterationSnapshotSha(svc.db.prisma, loopId, iteration));
  const definition = snapshotSha
    ? {
        ...(source.config as Record<string, unknown>),
        // `baseLoop`: the fork is graded against the source's base commit, not the forked
        // iteration's (which may hold tests the source's agent tampered with).
        forkStart: { source: workspaceSourceOf(loopId, source.config), sha: snapshotSha, baseLoop: loopId },
      }
    : (source.config as Record<string, unknown>);
  // The fork inherits state and history but not the source's ending or pending decisions,
  // and its wall clock (`stop.timeout`) starts now, not when the source started.
  const snapshot: LoopSnapshot = {
    ...restored,
    loopId: forkId,
    config,
    state: { ...restored.state, startTime: svc.engine.now(), maxHistory: config.reflection.maxHistory },
    ...(resume
      ? {
          config: {
            ...config,
            stop: {
              ...config.stop,
              maxIterations: Math.max(config.stop.maxIterations, restored.state.iteration + resume.moreIterations),
            },
          },
          inbox: {
            ...restored.inbox,
            nudges: [
              ...restored.inbox.nudges,
              { text: resume.nudge, by: actorName(acting.actor), at: svc.engine.now() },
            ],
          },
        }
      : {}),
    status: "initializing",
    halt: null,
    gate: null,
    pause: null,
    attention: null,
  };
  const insert = insertLoop(
    svc,
    snapshot,
    {
      goal: source.goal,
      name: source.name ? `${source.name} (fork)` : "",
      agentKind: source.agentKind,
      definition,
      engineConfig: snapshot.config,
      start,
    },
    acting,
    {
      forkedFromId: loopId,
      forkedFromIteration: iteration,
      eventType: "loop_forked",
      reason: `forked from iteration ${iteration}`,
    },
  );
  // Two copies of one request at once: the second insert meets the first's key.
  return insert.catch(async (error: unknown) => {
    const made = requestId && isStorageConflict(error) ? await forkMadeBy(svc, requestId, loopId) : null;
    if (made) return made;
    throw error;
  });
}

/** A definition as it may be stored: secrets linked, the acting role's policy, evidence and (when starting) preflight checked. */
export async function checkedDefinition(
  svc: LoopServices,
  definition: LoopDefinition,
  start: boolean,
  acting: ActingAs,
): Promise<LoopDefinition> {
  // A stored secret named like a variable the agent needs is used for it (the templates name them).
  definition = await linkStoredSecrets(svc.db, definition, acting);
  await assertLoopPolicy(svc.db, definition, acting);
  assertEvidenceSource(definition);
  assertFallbackAgent(definition);
  // Starting now: refuse what the preflight knows will fail (a draft may wait for the CLI or the key).
  if (start) await assertPreflight(svc.db, definition, acting);
  return definition;
}

/** Creates a loop from a definition `checkedDefinition` passed (the API's and the form's shape). */
export function createCheckedLoop(
  svc: LoopServices,
  definition: LoopDefinition,
  start: boolean,
  acting: ActingAs,
  raceId?: string,
) {
  return createLoop(
    svc,
    {
      goal: definition.goal,
      name: definition.name,
      agentKind: definition.agent.kind,
      definition: storedDefinition(definition),
      engineConfig: definition.loop,
      start,
      ...(raceId ? { raceId } : {}),
    },
    acting,
  );
}

/** Creates a loop from a validated definition (the API's and the form's shape). */
export async function createLoopFromDefinition(
  svc: LoopServices,
  definition: LoopDefinition,
  start: boolean,
  acting: ActingAs,
) {
  return createCheckedLoop(svc, await checkedDefinition(svc, definition, start, acting), start, acting);
}
