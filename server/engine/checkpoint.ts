/**
 * CD's checkpoints as data: built after every iteration, identified by a
 * UUIDv7 and sealed with SHA-256 over canonical JSON. Restoring verifies the
 * seal first, so a tampered or corrupted checkpoint is never resumed.
 */
import { z } from "zod";
import { canonicalJson } from "./canonical-json";
import { rememberedTexts } from "./checkpoint-memo";
import { LoopConfigError, loopConfigSchema } from "./config.schema";
import { loopStateSchema } from "./loop-state";
import { boundLists } from "./snapshot-bounds";
import type { Deps, TestResults } from "./ports";
import type { LoopSnapshot } from "./snapshot";
import { currentSnapshotCodec, SnapshotVersionError, upgradeSnapshot, type SnapshotCodec } from "./snapshot-versions";
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

/** SHA-256 hex of a string; the runtime passes the native one. */
export type Sha256 = (text: string) => string;

export function checkpointHash(checkpoint: Omit<Checkpoint, "hash"> | Checkpoint, hash: Sha256): string {
  const { hash: _ignored, ...body } = checkpoint as Checkpoint;
  return hash(canonicalJson(body));
}

/** Everything of a checkpoint but its hash: the header is derived from the snapshot. */
export function checkpointHeader(
  snapshot: Checkpoint["snapshot"],
  id: string,
  createdAt: number,
): Omit<Checkpoint, "hash"> {
  const totals = snapshot.ledger.totals;
  return {
    id,
    metadata: {
      loopId: snapshot.loopId,
      iteration: snapshot.state.iteration,
      agentId: snapshot.last.agentId,
      createdAt,
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
    snapshot,
  };
}

/** `id` lets the caller reserve the id first, e.g. to cite it in a continuation prompt. */
export function buildCheckpoint(
  snapshot: LoopSnapshot,
  deps: Pick<Deps, "now" | "random" | "sha256">,
  id?: string,
): Checkpoint {
  // No copy: canonical JSON writes a value as its JSON round trip would be, so the hash is the one the
  // stored text verifies against. The parts earlier checkpoints remembered (the config, complete runs of
  // the lists) are not written again (checkpoint-memo.ts).
  const body = checkpointHeader(snapshot, id ?? newCheckpointId(deps), deps.now());
  return { ...body, hash: deps.sha256(canonicalJson(body, rememberedTexts)) };
}

// Checked after upgrading, against the current shape.
const snapshotShape = z.looseObject({
  version: z.number().int(),
  loopId: z.string().min(1),
  goal: z.string(),
  config: loopConfigSchema,
  status: z.enum(loopStatuses),
  state: loopStateSchema,
  work: z.looseObject({ phase: z.enum(executionPhases) }),
});

// The same shape with the config left to a check remembered per config text (below).
const snapshotShapeButConfig = snapshotShape.extend({ config: z.unknown() });

/**
 * A restore parses the config with the codec and checks the result against
 * the current shape; every slice restores its loop's checkpoint, holding the
 * same config each time. Both are pure functions of the config's text, so a
 * config that parsed and passed is remembered by its canonical text (per
 * codec) and not put through zod again. Failures are not remembered: they
 * throw or report exactly as before.
 */
const parsedConfigs = new WeakMap<SnapshotCodec, Map<string, { text: string; current: boolean }>>();
const CONFIGS_KEPT = 256;

function parseConfigRemembered(codec: SnapshotCodec, config: unknown): { config: unknown; current: boolean } {
  if (typeof config !== "object" || config === null) return { config: codec.parseConfig(config), current: false };
  let known = parsedConfigs.get(codec);
  if (!known) parsedConfigs.set(codec, (known = new Map()));
  const key = canonicalJson(config);
  const hit = known.get(key);
  // A copy of its own for each restore: what one caller does with it is nobody else's concern.
  if (hit) return { config: JSON.parse(hit.text) as unknown, current: hit.current };
  const parsed = codec.parseConfig(config);
  const current = loopConfigSchema.safeParse(parsed).success;
  if (current) {
    if (known.size >= CONFIGS_KEPT) known.clear();
    known.set(key, { text: JSON.stringify(parsed), current });
  }
  return { config: parsed, current };
}

// Checked before the seal: the hash covers the snapshot exactly as stored, in its own version.
const checkpointShape = z.looseObject({
  id: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  metadata: z.looseObject({ loopId: z.string(), iteration: z.number() }),
  snapshot: z.looseObject({ version: z.number() }),
});

export function verifyCheckpoint(checkpoint: Checkpoint, hash: Sha256, expectedHash?: string): boolean {
  const actual = checkpointHash(checkpoint, hash);
  return actual === checkpoint.hash && (expectedHash === undefined || expectedHash === actual);
}

export interface RestoreOptions {
  /** The native SHA-256, injected by the runtime. */
  sha256: Sha256;
  /** The hash the caller stored separately (e.g. a database column); both must match. */
  expectedHash?: string;
  /** Versions and config defaults to upgrade to; the current release's unless a test says otherwise. */
  codec?: SnapshotCodec;
}

/**
 * Restores the loop a checkpoint captured: checks its shape and seal, walks
 * the snapshot up to the current version and re-applies config defaults.
 */
export function restoreFromCheckpoint(input: unknown, options: RestoreOptions): LoopSnapshot {
  const codec = options.codec ?? currentSnapshotCodec;
  const shape = checkpointShape.safeParse(input);
  if (!shape.success) {
    throw new CheckpointIntegrityError(`Malformed checkpoint: ${shape.error.issues[0]?.message ?? "invalid"}`);
  }
  const checkpoint = input as Checkpoint;
  const actual = checkpointHash(checkpoint, options.sha256);
  if (actual !== checkpoint.hash) throw new CheckpointIntegrityError("Checkpoint hash mismatch: content was altered");
  if (options.expectedHash !== undefined && options.expectedHash !== actual) {
    throw new CheckpointIntegrityError("Checkpoint hash does not match the expected hash");
  }
  let upgraded: Record<string, unknown>;
  let configChecked = false;
  try {
    const stored = upgradeSnapshot(JSON.parse(JSON.stringify(checkpoint.snapshot)), codec);
    const parsed = parseConfigRemembered(codec, stored.config);
    upgraded = { ...stored, config: parsed.config };
    configChecked = parsed.current;
  } catch (error) {
    if (error instanceof SnapshotVersionError) throw new CheckpointIntegrityError(`Cannot restore: ${error.message}`);
    if (error instanceof LoopConfigError) {
      throw new CheckpointIntegrityError(`Cannot restore: its config is no longer valid: ${error.issues.join("; ")}`);
    }
    throw error;
  }
  const current = (configChecked ? snapshotShapeButConfig : snapshotShape).safeParse(upgraded);
  if (!current.success || upgraded.version !== codec.version) {
    const issue = current.success ? `version ${String(upgraded.version)}` : current.error.issues[0]?.message;
    throw new CheckpointIntegrityError(`Malformed checkpoint: ${issue ?? "invalid"}`);
  }
  // A checkpoint written before the list bounds (or before maxHistory was lowered) continues within them.
  const snapshot = boundLists(upgraded as unknown as LoopSnapshot);
  // An agent that was mid-call when the process died is gone; its run is not resumable.
  return {
    ...snapshot,
    health: { ...snapshot.health, runStartedAt: null },
    last: { ...snapshot.last, checkpointId: checkpoint.id },
  };
}
