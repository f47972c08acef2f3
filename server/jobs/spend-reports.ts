// The runtime's side of late spend reports (server/db/stranded-spend.repo.ts):
// a runtime that lost its lease stores what its agent reported for the attempt
// it could not commit; the runtime that owns the loop folds each report into
// its snapshot and settles it in the commit that stores that snapshot, so the
// checkpoint, the loop's cost and the rows agree and nothing counts twice.
import type { ControlAck, LoopSnapshot } from "../engine";
import type { Db } from "../db/client";
import { recordStrandedSpend, SPEND_REPORT_KIND, spendReportOf, type SpendReport } from "../db/stranded-spend.repo";
import type { RuntimeAgentTracker } from "./agent-tracker";
import { withCrashedSpend } from "./crashed-spend";

export class SpendReports {
  private readonly seen = new Set<string>();
  private arrived: { id: string; report: SpendReport }[] = [];
  private folded: string[] = [];

  /** Keeps the spend reports among pending requests; returns the operator's requests. */
  take<T extends { id: string; kind: string; payload: unknown }>(rows: readonly T[]): T[] {
    const rest: T[] = [];
    for (const row of rows) {
      if (row.kind !== SPEND_REPORT_KIND) {
        rest.push(row);
        continue;
      }
      const report = spendReportOf(row.payload);
      if (report && !this.seen.has(row.id)) this.arrived.push({ id: row.id, report });
      this.seen.add(row.id);
    }
    return rest;
  }

  /** What arrived goes into the snapshot before the next step; settled by the next commit. */
  fold(snapshot: LoopSnapshot, at: number): LoopSnapshot {
    for (const { id, report } of this.arrived.splice(0)) {
      const { number, attempt, ...spend } = report;
      snapshot = withCrashedSpend(snapshot, spend, { iteration: number, attempt, agentId: "late-report", at });
      this.folded.push(id);
    }
    return snapshot;
  }

  /** The acks of what the snapshot about to be committed has folded in. */
  acks(at: number): ControlAck[] {
    return this.folded.map((requestId) => ({ requestId, outcome: "applied", note: "counted on the loop", at }));
  }

  /** The commit stood: its acks are settled. */
  committed() {
    this.folded = [];
  }
}

/**
 * After a lost lease: the spend the agent of the attempt this runtime had in flight reported, stored for the
 * next owner to count. Best effort: the database may be what failed.
 */
export async function storeStrandedSpend(
  db: Db,
  loopId: string,
  tracker: RuntimeAgentTracker | undefined,
  inflight: { number: number; attempt: number; at: Date } | null,
  now: Date,
) {
  const spend = inflight && tracker?.reported(inflight.number);
  if (!inflight || !spend) return;
  await recordStrandedSpend(db, loopId, { ...inflight, startedAt: inflight.at }, spend, now).catch(() => undefined);
}
