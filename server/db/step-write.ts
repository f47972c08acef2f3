// What one safe point writes: the input of the loop store's step commit
// (step-commit-sql.ts), and of its Prisma oracle in the tests.
import type { NewControlRequest, ControlSettlement } from "./controls.repo";
import type { NewLoopEvent } from "./events.repo";
import { Prisma } from "./generated/sqlite/client";

/** A nullable Json column set to SQL NULL (Prisma's sentinel), for callers outside server/db. */
export const DB_NULL = Prisma.DbNull;

export interface CheckpointRow {
  id: string;
  iteration: number;
  state: string;
  sha256: string;
  /** Parts the checkpoint cites (CheckpointPart), stored with it unless the loop has them already. */
  parts?: { hash: string; body: string }[];
}

export type IterationRow = Omit<Prisma.IterationCreateManyInput, "loopId" | "attempt">;

/** Who may write: the runtime holding the lease, or anyone who read this version of an unleased loop. */
export type StepFence = { owner: string } | { version: number };

export interface StepWrite {
  loopId: string;
  fence: StepFence;
  loop: Prisma.LoopUpdateManyMutationInput;
  /** The loop ended with this write: requests still pending are rejected. */
  ended: boolean;
  /** The iteration's row and the attempt that was marked in flight for it. */
  iteration?: { row: IterationRow; attempt: number };
  /** The iteration that starts right after this commit, if any. */
  nextInflight?: { number: number; at: Date } | null;
  checkpoint?: CheckpointRow;
  events: NewLoopEvent[];
  /** Outcomes of pending requests the step applied or rejected. */
  acks: readonly ControlSettlement[];
  /** Requests applied in this same write (a service on an idle loop); stored already settled. */
  newControls?: NewControlRequest[];
  /** Give the lease back (the loop waits, pauses or halted), unless requests arrived meanwhile. */
  release?: boolean;
  /** A gate the loop now waits at. */
  openApproval?: {
    id: string;
    iteration: number;
    gate: string;
    deadlineAt: Date | null;
    defaultAction: string;
    context: unknown;
  };
  /** Gates resolved in this step (by an operator or by deadline). */
  decidedApprovals?: {
    id: string;
    status: string;
    comment: string | null;
    by: string;
    byId: string | null;
    at: Date;
  }[];
}

/** An operator request still pending, as a safe point reads it (controls.repo.ts, the step commit). */
export interface PendingControl {
  id: string;
  kind: string;
  payload: unknown;
  actorId: string | null;
  actor: string;
  reason: string | null;
  createdAt: Date;
}

export interface StepCommitResult {
  /** The lease was given back (a runtime keeps it when requests arrived after it read them). */
  released: boolean;
  /**
   * A runtime's step that keeps its lease: the loop's pending requests as of this commit, read in its
   * transaction, so the next safe point needs no read of its own (oldest first).
   */
  pendingControls?: PendingControl[];
}
