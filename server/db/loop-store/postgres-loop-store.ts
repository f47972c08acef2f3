// The hot path on PostgreSQL: named prepared statements on the store's own pg
// pool (pg-step-pool.ts), beside Prisma's, whose query costs about a
// millisecond of CPU in the worker; each single statement runs on its own,
// committed at once. Step commits are batched over several pooled clients
// (group commit). A one-loop claim, rare here (workers claim in batches),
// stays on Prisma.
import type { Db } from "../prisma-client";
import { CLAIMED_SELECT, type ClaimedLoop } from "../claimed-loop";
import { GroupCommitter } from "../group-commit";
import { claimableWhere, LeaseLostError } from "../loop-lease.repo";
import { PG_STEP_POOL, type PgStepPool } from "../pg-step-pool";
import type { GroupCommitStats } from "../step-commit-slot";
import { PgStepDriver } from "../step-commit-drivers";
import { decodePendingControls, pendingControlsStatement } from "../step-commit-sql";
import { POSTGRES_ENCODING } from "../step-encoding";
import type { PendingControl } from "../step-write";
import { inTransaction } from "../tx";
import type { CheckpointCitations, CitedRows, HeldLease, LoopStore, StoredCheckpointRow } from "./loop-store.port";
import { currentCheckpointId, leasesKept } from "./prisma-steps";
import * as sql from "./postgres-statements";
import { PrismaBackedStore } from "./prisma-backed-store";

type RenewedRow = { id: string; leaseOwner: string | null };

export class PostgresLoopStore extends PrismaBackedStore implements LoopStore {
  protected readonly committer: GroupCommitter;

  /**
   * PostgreSQL answers statement by statement (only BEGIN and savepoints ride
   * along with the statement behind them), so a huge batch is a long chain of
   * round trips: smaller batches on every pooled client. A batch locks its
   * loops' rows up front in id order, the lease renewal's order, so the two
   * cannot deadlock (step-commit-drivers.ts).
   */
  constructor(
    prisma: Db,
    readonly pool: PgStepPool,
    groupCommitMs: number,
    stats: GroupCommitStats,
  ) {
    super(prisma);
    this.committer = new GroupCommitter(
      new PgStepDriver(pool),
      groupCommitMs,
      { maxBatch: 16, concurrency: PG_STEP_POOL, urgentLanes: 1 },
      stats,
    );
  }

  claim(loopId: string, owner: string, now: Date, ttlMs: number): Promise<ClaimedLoop | null> {
    return inTransaction(this.prisma, async (tx) => {
      const claimed = await tx.loop.updateMany({
        where: { id: loopId, ...claimableWhere(now) },
        data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + ttlMs), version: { increment: 1 } },
      });
      return claimed.count === 1 ? tx.loop.findUnique({ where: { id: loopId }, select: CLAIMED_SELECT }) : null;
    });
  }

  /** Skips rows another worker is claiming right now (FOR UPDATE SKIP LOCKED). */
  async claimNext(owner: string, now: Date, ttlMs: number, limit: number): Promise<string[]> {
    const at = now.toISOString();
    const expires = new Date(now.getTime() + ttlMs).toISOString();
    const { rows } = await this.pool.run<{ id: string }>({
      sql: sql.CLAIM_NEXT,
      params: [owner, expires, at, at, limit],
    });
    return rows.map((r) => r.id);
  }

  async loadClaimed(loopId: string, owner: string): Promise<ClaimedLoop | null> {
    const { rows } = await this.pool.run<ClaimedLoop>({ sql: sql.LOAD_CLAIMED, params: [loopId, owner] });
    return rows[0] ?? null;
  }

  async checkpointById(id: string): Promise<StoredCheckpointRow | null> {
    const { rows } = await this.pool.run<StoredCheckpointRow & Record<string, unknown>>({
      sql: sql.CHECKPOINT_BY_ID,
      params: [id],
    });
    return rows[0] ?? null;
  }

  async currentCheckpoint(loopId: string): Promise<StoredCheckpointRow | null> {
    const id = await currentCheckpointId(this.prisma, loopId);
    return id ? this.checkpointById(id) : null;
  }

  async citedByCheckpoint(loopId: string, cites: CheckpointCitations): Promise<CitedRows> {
    const [parts, output] = await Promise.all([
      cites.parts.length
        ? this.pool.run<{ hash: string; body: string }>({ sql: sql.CITED_PARTS, params: [loopId, cites.parts] })
        : { rows: [] },
      cites.outputRow
        ? this.pool.run<{ output: string }>({ sql: sql.CITED_OUTPUT, params: [cites.outputRow] })
        : { rows: [] },
    ]);
    return { parts: new Map(parts.rows.map((p) => [p.hash, p.body])), output: output.rows[0]?.output };
  }

  async markInflight(loopId: string, owner: string, number: number, now: Date): Promise<number> {
    const at = now.toISOString();
    const { rows } = await this.pool.run<{ inflightAttempt: number }>({
      sql: sql.MARK_INFLIGHT,
      params: [number, number, number, at, at, number, at, at, at, loopId, owner],
    });
    const attempt = rows[0]?.inflightAttempt;
    if (attempt === undefined) throw new LeaseLostError(loopId);
    return attempt;
  }

  async readPendingControls(loopId: string): Promise<PendingControl[]> {
    const { rows } = await this.pool.run(pendingControlsStatement(POSTGRES_ENCODING, loopId));
    return decodePendingControls(POSTGRES_ENCODING, rows);
  }

  /**
   * Two passes that never wait while holding a loop row, so they cannot be
   * part of a deadlock with grouped step batches (which lock several rows, in
   * id order; PgStepDriver) nor make batches queue behind a renewal that waits
   * for another batch. First one statement for all leases that skips rows
   * locked right now (a step of ours being committed, mostly); then each lease
   * it did not renew, alone: a single-row update holds nothing while it waits
   * for that row. A lost lease is one neither pass renewed.
   */
  async renewLeases<L extends HeldLease>(leases: readonly L[], now: Date, ttlMs: number) {
    const pendingControls = new Set<string>();
    if (leases.length === 0) return { lost: [], pendingControls };
    const until = new Date(now.getTime() + ttlMs).toISOString();
    const at = now.toISOString();
    const ids = [...new Set(leases.map((l) => l.loopId))];
    const owners = [...new Set(leases.map((l) => l.owner))];
    const { rows } = await this.pool.run<RenewedRow>({ sql: sql.RENEW_UNLOCKED, params: [until, at, ids, owners] });
    const renewed = new Set(rows.map((r) => r.id));
    const rest = leases.filter((l) => !renewed.has(l.loopId));
    const more = await Promise.all(
      rest.map((l) => this.pool.run<RenewedRow>({ sql: sql.RENEW_ONE, params: [until, at, l.loopId, l.owner] })),
    );
    const { lost, keptIds } = leasesKept(leases, [...rows, ...more.flatMap((m) => m.rows)]);
    if (keptIds.length) {
      const pending = await this.pool.run<{ loopId: string }>({ sql: sql.PENDING_OF, params: [keptIds] });
      for (const p of pending.rows) pendingControls.add(p.loopId);
    }
    return { lost, pendingControls };
  }

  /** The committer first (its batches use the pool), then the pool. */
  async close() {
    await this.committer.close();
    await this.pool.end();
  }
}
