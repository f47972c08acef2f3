/**
 * CD's checkpoints as data: built after every iteration, identified by a
 * UUIDv7 and sealed with SHA-256 over canonical JSON. Restoring verifies the
 * seal first, so a tampered or corrupted checkpoint is never resumed.
 */
import { z } from "zod";
import { canonicalJson } from "./canonical-json";
import { loopConfigSchema } from "./config.schema";
import { loopStateSchema } from "./loop-state";
import type { Deps, TestResults } from "./ports";
import { sha256 } from "./sha256";
import type { LoopSnapshot } from "./snapshot";
import { SNAPSHOT_VERSION } from "./snapshot";
import { loopStatuses } from "./stop-types";
import { uuidv7 } from "./uuidv7";
import { executionPhases } from "./vocabulary";

export interface Checkpoint {
  id: string;
  metadata: { loopId: string; iteration: number; agentId: string | null; createdAt: number };
  execution: {
    phase: LoopSnapshot["work"]["phase"];
    completed: string[];
    pending: string[];
    blocked: LoopSnapshot["work"]["blocked"];
  };
  context: { decisions: string[]; assumptions: string[]; constraints: string[] };
  metrics: {
    tokens: { input: number; output: number; cache: number; total: number };
    toolCalls: number;
    costUsd: number;
    testResults: TestResults | null;
  };
  recovery: { continuationPrompt: string | null; resumeFromIteration: number };
  snapshot: LoopSnapshot;
  /** SHA-256 of the canonical JSON of every other field. */
  hash: string;
}

export class CheckpointIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckpointIntegrityError";
  }
}

export function newCheckpointId(deps: Pick<Deps, "now" | "random">): string {
  return uuidv7(deps.now, deps.random);
}

export function checkpointHash(checkpoint: Omit<Checkpoint, "hash"> | Checkpoint, hash: (text: string) => string = sha256): string {
  const { hash: _ignored, ...body } = checkpoint as Checkpoint;
  return hash(canonicalJson(body));
}

/** `id` lets the caller reserve the id first, e.g. to cite it in a continuation prompt. */
export function buildCheckpoint(snapshot: LoopSnapshot, deps: Pick<Deps, "now" | "random" | "sha256">, id?: string): Checkpoint {
  const totals = snapshot.ledger.totals;
  const body: Omit<Checkpoint, "hash"> = {
    id: id ?? newCheckpointId(deps),
    metadata: {
      loopId: snapshot.loopId,
      iteration: snapshot.state.iteration,
      agentId: snapshot.last.agentId,
      createdAt: deps.now(),
    },
    execution: {
      phase: snapshot.work.phase,
      completed: [...snapshot.work.completed],
      pending: [...snapshot.work.pending],
      blocked: snapshot.work.blocked.map((b) => ({ ...b })),
    },
    context: {
      decisions: [...snapshot.work.decisions],
      assumptions: [...snapshot.work.assumptions],
      constraints: [...snapshot.work.constraints],
    },
    metrics: {
      tokens: { input: totals.input, output: totals.output, cache: totals.cache, total: totals.tokens },
      toolCalls: totals.toolCalls,
      costUsd: totals.costUsd,
      testResults: snapshot.work.testResults,
    },
    recovery: { continuationPrompt: snapshot.plan.continuation, resumeFromIteration: snapshot.state.iteration + 1 },
    // A JSON round trip makes the stored form and the hashed form identical.
    snapshot: JSON.parse(JSON.stringify(snapshot)) as LoopSnapshot,
  };
  return { ...body, hash: checkpointHash(body, deps.sha256) };
}

const snapshotShape = z.looseObject({
  version: z.literal(SNAPSHOT_VERSION),
  loopId: z.string().min(1),
  goal: z.string(),
  config: loopConfigSchema,
  status: z.enum(loopStatuses),
  state: loopStateSchema,
  work: z.looseObject({ phase: z.enum(executionPhases) }),
});

const checkpointShape = z.looseObject({
  id: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  metadata: z.looseObject({ loopId: z.string(), iteration: z.number() }),
  snapshot: snapshotShape,
});

export function verifyCheckpoint(checkpoint: Checkpoint, expectedHash?: string): boolean {
  const actual = checkpointHash(checkpoint);
  return actual === checkpoint.hash && (expectedHash === undefined || expectedHash === actual);
}

/**
 * Restores the loop a checkpoint captured. `expectedHash` is the hash the
 * caller stored separately (e.g. a database column); both must match.
 */
export function restoreFromCheckpoint(input: unknown, expectedHash?: string): LoopSnapshot {
  const shape = checkpointShape.safeParse(input);
  if (!shape.success) {
    throw new CheckpointIntegrityError(`Malformed checkpoint: ${shape.error.issues[0]?.message ?? "invalid"}`);
  }
  const checkpoint = input as Checkpoint;
  const actual = checkpointHash(checkpoint);
  if (actual !== checkpoint.hash) throw new CheckpointIntegrityError("Checkpoint hash mismatch: content was altered");
  if (expectedHash !== undefined && expectedHash !== actual) {
    throw new CheckpointIntegrityError("Checkpoint hash does not match the expected hash");
  }
  const snapshot = JSON.parse(JSON.stringify(checkpoint.snapshot)) as LoopSnapshot;
  // An agent that was mid-call when the process died is gone; its run is not resumable.
  return {
    ...snapshot,
    health: { ...snapshot.health, runStartedAt: null },
    last: { ...snapshot.last, checkpointId: checkpoint.id },
  };
}
