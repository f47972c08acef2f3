// What both loop stores do the same way: the rare writes that go through Prisma
// (prisma-steps.ts) and the step commit's hand-off to the store's group
// committer. Each store adds its own claim, reads and lease renewal.
import type { Db } from "../prisma-client";
import type { CommitOptions, GroupCommitter } from "../group-commit";
import type { StepCommitResult, StepWrite } from "../step-write";
import { failLoop, fenceLaunch, recordCrashedAttempt } from "./prisma-steps";

export abstract class PrismaBackedStore {
  protected abstract readonly committer: GroupCommitter;

  constructor(protected readonly prisma: Db) {}

  recordCrashedAttempt(loopId: string, owner: string, now: Date, agentId: string) {
    return recordCrashedAttempt(this.prisma, loopId, owner, now, agentId);
  }

  fenceLaunch(loopId: string, owner: string, attempt: { number: number; attempt: number }, now: Date, ttlMs: number) {
    return fenceLaunch(this.prisma, loopId, owner, attempt, now, ttlMs);
  }

  commitStep(write: StepWrite, options?: CommitOptions): Promise<StepCommitResult> {
    return this.committer.commit(write, options);
  }

  fail(loopId: string, owner: string, reason: string, now: Date) {
    return failLoop(this.prisma, loopId, owner, reason, now);
  }
}
