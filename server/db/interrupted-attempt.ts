// The row of an attempt that never reached its safe point: a crash recorded by
// the next owner (loop-store/prisma-steps.ts) or spend reported after a lost
// lease (stranded-spend.repo.ts). One shape, so both write the same row.
import type { Tx } from "./tx";

export interface InterruptedAttempt {
  loopId: string;
  number: number;
  attempt: number;
  agentId: string;
  startedAt: Date;
  now: Date;
  /** Why it did not finish, for people. */
  error: string;
  counts?: { tokensIn: number; tokensOut: number; tokensCache: number; costUsd: number };
}

export async function createInterruptedAttempt(tx: Tx, a: InterruptedAttempt): Promise<void> {
  await tx.iteration.create({
    data: {
      id: `${a.loopId}:${a.number}:${a.attempt}`,
      loopId: a.loopId,
      number: a.number,
      attempt: a.attempt,
      status: "interrupted",
      agentId: a.agentId,
      input: "",
      startedAt: a.startedAt,
      finishedAt: a.now,
      durationMs: Math.max(0, a.now.getTime() - a.startedAt.getTime()),
      error: a.error,
      ...a.counts,
    },
  });
}
