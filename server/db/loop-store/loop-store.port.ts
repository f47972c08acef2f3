// The runtime's hot path in storage: everything a slice does to its loop from
// claim to release, as one port. Each database has one implementation of it
// (sqlite-loop-store.ts, postgres-loop-store.ts), chosen once, when the
// database is opened (client.ts); nothing on the path asks which database it
// is on. Prisma keeps the cold paths (create, lists, detail pages, services).
import type { InflightAgent } from "../agent-runs.repo";
import type { ClaimedLoop } from "../claimed-loop";
import type { CommitOptions } from "../group-commit";
import type { PendingControl, StepCommitResult, StepWrite } from "../step-write";

export type { ClaimedLoop };

/** A lease a runtime holds: the loop and the owner id of the claim. */
export interface HeldLease {
  loopId: string;
  owner: string;
}

/** A checkpoint's stored form: the row the loop points at, before its citations are resolved. */
export interface StoredCheckpointRow {
  id: string;
  loopId: string;
  state: string;
  sha256: string;
}

/** What a stored checkpoint cites: parts by hash, and the iteration row holding its last output. */
export interface CheckpointCitations {
  parts: string[];
  outputRow: string | null;
}

export interface CitedRows {
  parts: Map<string, string>;
  output: string | undefined;
}

/** The attempt a crashed runtime left in flight, now recorded as interrupted (see recordCrashedAttempt). */
export interface CrashedAttempt {
  number: number;
  attempt: number;
  /** The crashed agent's process group, to make sure it is gone. */
  group: NonNullable<InflightAgent["group"]> | null;
  /** The spend of every crashed attempt of this number: the checkpoint predates them all. */
  uncountedSpend: { input: number; output: number; cache: number; costUsd: number };
}

export interface LoopStore {
  /** Claims one loop if it is runnable and nobody holds a live lease on it (compare-and-set). */
  claim(loopId: string, owner: string, now: Date, ttlMs: number): Promise<ClaimedLoop | null>;
  /** Claims up to `limit` runnable loops for a worker, under one owner id; returns their ids. */
  claimNext(owner: string, now: Date, ttlMs: number, limit: number): Promise<string[]>;
  /** The loop a caller already claimed in a batch, if it still holds the lease. */
  loadClaimed(loopId: string, owner: string): Promise<ClaimedLoop | null>;
  /**
   * After a crash: the attempt that was in flight is recorded as interrupted,
   * with the spend its agent reported, and the next attempt of the same number
   * will run. Null when nothing was in flight.
   */
  recordCrashedAttempt(loopId: string, owner: string, now: Date, agentId: string): Promise<CrashedAttempt | null>;
  /** A checkpoint's stored form by id (a runtime that just claimed the loop knows which one its row points at). */
  checkpointById(id: string): Promise<StoredCheckpointRow | null>;
  /** The checkpoint the loop row points at (the one written with its latest step). */
  currentCheckpoint(loopId: string): Promise<StoredCheckpointRow | null>;
  /** The parts and the output a stored checkpoint cites, by hash and by row id. */
  citedByCheckpoint(loopId: string, cites: CheckpointCitations): Promise<CitedRows>;
  /**
   * Marks an iteration as started, so a crash during it is noticed by the next
   * owner; durable before the agent starts. Returns the attempt now in flight;
   * throws LeaseLostError when the lease is gone.
   */
  markInflight(loopId: string, owner: string, number: number, now: Date): Promise<number>;
  /**
   * The fence an agent launch passes through (issue 32): in one statement, the
   * attempt about to run must still be the one in flight, under this claim, on
   * a lease that has not expired; it renews the lease from now, so the agent
   * has a whole TTL before anyone may claim. Returns whether the launch may go.
   */
  fenceLaunch(
    loopId: string,
    owner: string,
    attempt: { number: number; attempt: number },
    now: Date,
    ttlMs: number,
  ): Promise<boolean>;
  /** Pending requests of one loop, oldest first. */
  readPendingControls(loopId: string): Promise<PendingControl[]>;
  /**
   * Stores one safe point in one fenced transaction (step-write.ts says what it
   * holds). Returns whether the lease was given back: a runtime keeps it when
   * requests arrived after it read them, and applies them next.
   */
  commitStep(write: StepWrite, options?: CommitOptions): Promise<StepCommitResult>;
  /** Gives up on a loop the runtime cannot run (bad checkpoint, unusable config), releasing its lease. */
  fail(loopId: string, owner: string, reason: string, now: Date): Promise<void>;
  /**
   * Renews a whole process's leases and reports, in the same tick, which of
   * them have pending operator requests: the heartbeat that keeps leases alive
   * is also how slices learn of controls. A lease counts as kept only when the
   * row still names its owner.
   */
  renewLeases<L extends HeldLease>(
    leases: readonly L[],
    now: Date,
    ttlMs: number,
  ): Promise<{ lost: L[]; pendingControls: Set<string> }>;
  /** Ends the store's own connections and pending commits (the database closes it). */
  close(): Promise<void>;
}
