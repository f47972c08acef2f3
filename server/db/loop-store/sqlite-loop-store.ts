// The hot path on SQLite: single statements prepared on the connection
// Prisma's adapter opened (sqlite-lean.ts), under the lock its transactions
// take, and the step commit's batches on the same connection (group commit,
// one writer). Worker claims and lease renewals, rare on SQLite (one app
// process), stay on Prisma.
import type { Db } from "../prisma-client";
import { CLAIMED_COLUMNS_SQL, CLAIMED_SELECT, type ClaimedLoop } from "../claimed-loop";
import { GroupCommitter } from "../group-commit";
import {
  claimableWhere,
  CONTROLLABLE_STATUSES,
  LeaseLostError,
  RUNNABLE_STATUSES,
  SCHEDULED_STATUSES,
} from "../loop-lease.repo";
import { SqliteLean } from "../sqlite-lean";
import type { GroupCommitStats, SqliteConnection } from "../step-commit-slot";
import { SqliteStepDriver } from "../step-commit-drivers";
import { decodePendingControls, pendingControlsStatement } from "../step-commit-sql";
import { SQLITE_ENCODING } from "../step-encoding";
import type { PendingControl } from "../step-write";
import { inTransaction } from "../tx";
import type { CheckpointCitations, CitedRows, HeldLease, LoopStore, StoredCheckpointRow } from "./loop-store.port";
import { PrismaBackedStore } from "./prisma-backed-store";
import { currentCheckpointId, leasesKept } from "./prisma-steps";

const sqlList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(", ");

/** claimableWhere as one compare-and-set statement (dates compare as the stored text), returning the claimed row. */
const CLAIM_SQL = `UPDATE "Loop" SET "leaseOwner" = @owner, "leaseExpiresAt" = @expires,
    "version" = "version" + 1, "updatedAt" = @updatedAt
  WHERE "id" = @id AND ("leaseOwner" IS NULL OR "leaseExpiresAt" < @now)
    AND ("status" IN (${sqlList(RUNNABLE_STATUSES)})
      OR ("status" IN (${sqlList(SCHEDULED_STATUSES)}) AND "nextRunAt" <= @now)
      OR ("status" IN (${sqlList(CONTROLLABLE_STATUSES)})
        AND EXISTS (SELECT 1 FROM "ControlRequest" c WHERE c."loopId" = "Loop"."id" AND c."status" = 'pending')))
  RETURNING ${CLAIMED_COLUMNS_SQL}`;

/**
 * markInflight as one statement: the attempt is computed from the row's old values (every SET
 * expression sees them), and the update commits on its own, durable before the agent starts.
 */
const MARK_INFLIGHT_SQL = `UPDATE "Loop" SET
  "inflightAttempt" = CASE WHEN "inflightIteration" = @number THEN COALESCE("inflightAttempt", 1) ELSE 1 END,
  "startedAt" = CASE WHEN @number = 1 AND ("inflightIteration" IS NOT @number OR COALESCE("inflightAttempt", 1) = 1)
    THEN @at ELSE COALESCE("startedAt", @at) END,
  "inflightIteration" = @number, "inflightStartedAt" = @at, "inflightAgent" = NULL, "lastActivityAt" = @at,
  "status" = 'running', "nextRunAt" = NULL, "updatedAt" = @at
  WHERE "id" = @id AND "leaseOwner" = @owner RETURNING "inflightAttempt"`;

const CHECKPOINT_SQL = `SELECT "id", "loopId", "state", "sha256" FROM "Checkpoint" WHERE "id" = ?`;
const CITED_PARTS_SQL = `SELECT "hash", "body" FROM "CheckpointPart"
  WHERE "loopId" = ? AND "hash" IN (SELECT "value" FROM json_each(?))`;
const CITED_OUTPUT_SQL = `SELECT "output" FROM "Iteration" WHERE "id" = ?`;

/** Leases renewed per statement, well under SQLite's parameter limit. */
const RENEW_CHUNK = 500;

const date = SQLITE_ENCODING.date;

export class SqliteLoopStore extends PrismaBackedStore implements LoopStore {
  private readonly lean: SqliteLean;
  protected readonly committer: GroupCommitter;

  /**
   * `connection`: the adapter's connection (opening it first if needed). Batches follow each other
   * (one writer), as large as they come.
   */
  constructor(
    prisma: Db,
    readonly connection: () => Promise<SqliteConnection>,
    groupCommitMs: number,
    stats: GroupCommitStats,
  ) {
    super(prisma);
    this.lean = new SqliteLean(connection);
    this.committer = new GroupCommitter(
      new SqliteStepDriver(connection),
      groupCommitMs,
      { maxBatch: 256, concurrency: 1 },
      stats,
    );
  }

  async claim(loopId: string, owner: string, now: Date, ttlMs: number): Promise<ClaimedLoop | null> {
    // One statement, so it commits on its own: a Prisma claim costs an interactive transaction of four.
    const params = {
      id: loopId,
      owner,
      now: date(now),
      expires: date(new Date(now.getTime() + ttlMs)),
      // What Prisma's @updatedAt writes: the wall clock, not the engine's.
      updatedAt: date(new Date()),
    };
    const row = await this.lean.run(
      (prepare) => prepare(CLAIM_SQL).get(params) as (Omit<ClaimedLoop, "config"> & { config: string }) | undefined,
    );
    return row ? { ...row, config: JSON.parse(row.config) as ClaimedLoop["config"] } : null;
  }

  /** A single writer: a compare-and-set per candidate is enough. */
  async claimNext(owner: string, now: Date, ttlMs: number, limit: number): Promise<string[]> {
    const expires = new Date(now.getTime() + ttlMs);
    const candidates = await this.prisma.loop.findMany({
      where: claimableWhere(now),
      select: { id: true },
      orderBy: [{ nextRunAt: "asc" }, { updatedAt: "asc" }],
      take: limit,
    });
    return inTransaction(this.prisma, async (tx) => {
      const claimed: string[] = [];
      for (const { id } of candidates) {
        const done = await tx.loop.updateMany({
          where: { id, ...claimableWhere(now) },
          data: { leaseOwner: owner, leaseExpiresAt: expires, version: { increment: 1 } },
        });
        if (done.count === 1) claimed.push(id);
      }
      return claimed;
    });
  }

  loadClaimed(loopId: string, owner: string): Promise<ClaimedLoop | null> {
    return this.prisma.loop.findFirst({ where: { id: loopId, leaseOwner: owner }, select: CLAIMED_SELECT });
  }

  async checkpointById(id: string): Promise<StoredCheckpointRow | null> {
    const row = await this.lean.run((prepare) => prepare(CHECKPOINT_SQL).get(id) as StoredCheckpointRow | undefined);
    return row ?? null;
  }

  async currentCheckpoint(loopId: string): Promise<StoredCheckpointRow | null> {
    const id = await currentCheckpointId(this.prisma, loopId);
    return id ? this.checkpointById(id) : null;
  }

  citedByCheckpoint(loopId: string, cites: CheckpointCitations): Promise<CitedRows> {
    // Both reads at once on prepared statements (every slice restores a checkpoint first).
    return this.lean.run((prepare) => {
      const parts = cites.parts.length
        ? (prepare(CITED_PARTS_SQL).all(loopId, JSON.stringify(cites.parts)) as { hash: string; body: string }[])
        : [];
      const output = cites.outputRow
        ? (prepare(CITED_OUTPUT_SQL).get(cites.outputRow) as { output: string } | undefined)
        : undefined;
      return { parts: new Map(parts.map((p) => [p.hash, p.body])), output: output?.output };
    });
  }

  async markInflight(loopId: string, owner: string, number: number, now: Date): Promise<number> {
    const at = date(now);
    const row = await this.lean.run(
      (prepare) =>
        prepare(MARK_INFLIGHT_SQL).get({ number, at, id: loopId, owner }) as { inflightAttempt: number } | undefined,
    );
    if (!row) throw new LeaseLostError(loopId);
    return row.inflightAttempt;
  }

  async readPendingControls(loopId: string): Promise<PendingControl[]> {
    const { sql, params } = pendingControlsStatement(SQLITE_ENCODING, loopId);
    const rows = await this.lean.run((prepare) => prepare(sql).all(...params) as Record<string, unknown>[]);
    return decodePendingControls(SQLITE_ENCODING, rows);
  }

  /** One statement per chunk, in one transaction; then the pending requests of the leases kept. */
  async renewLeases<L extends HeldLease>(leases: readonly L[], now: Date, ttlMs: number) {
    const pendingControls = new Set<string>();
    if (leases.length === 0) return { lost: [], pendingControls };
    const expires = new Date(now.getTime() + ttlMs);
    const rows = await inTransaction(this.prisma, async (tx) => {
      const out: { id: string; leaseOwner: string | null }[] = [];
      for (let i = 0; i < leases.length; i += RENEW_CHUNK) {
        const chunk = leases.slice(i, i + RENEW_CHUNK);
        out.push(
          ...(await tx.loop.updateManyAndReturn({
            where: {
              id: { in: [...new Set(chunk.map((l) => l.loopId))] },
              leaseOwner: { in: [...new Set(chunk.map((l) => l.owner))] },
            },
            data: { leaseExpiresAt: expires, lastHeartbeatAt: now },
            select: { id: true, leaseOwner: true },
          })),
        );
      }
      return out;
    });
    const { lost, keptIds } = leasesKept(leases, rows);
    for (let i = 0; i < keptIds.length; i += RENEW_CHUNK) {
      const pending = await this.prisma.controlRequest.findMany({
        where: { loopId: { in: keptIds.slice(i, i + RENEW_CHUNK) }, status: "pending" },
        select: { loopId: true },
      });
      for (const p of pending) pendingControls.add(p.loopId);
    }
    return { lost, pendingControls };
  }

  close() {
    return this.committer.close();
  }
}
