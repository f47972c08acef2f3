// The step commit as plain SQL, written once for both databases. It is a
// generator of statements: the SQLite driver runs each one synchronously (so
// no other query can slip into its transaction on the shared connection), the
// PostgreSQL driver awaits each one. Each driver hands it its database's value
// encoding (step-encoding.ts); the SQL itself is the same on both.
import { ALERTABLE_EVENT_TYPES } from "../alert-kinds";
import { alertsOf, deliveryRows, pushChannelUsers, pushChannels } from "./alerts.repo";
import { ControlAlreadySettledError } from "./controls.repo";
import { toRow, type NewLoopEvent } from "./events.repo";
import { Prisma } from "./generated/sqlite/client";
import { LeaseLostError } from "./loop-lease.repo";
import type { PendingControl, StepCommitResult, StepWrite } from "./step-write";
import { decodeTimestamp, type StepEncoding } from "./step-encoding";
import { StaleLoopError } from "./step-errors";
import { scrubText } from "./text-scrub";

export interface Statement {
  /** `?` placeholders; the PostgreSQL driver numbers them. */
  sql: string;
  params: unknown[];
}
export interface StatementResult {
  changes: number;
  rows: Record<string, unknown>[];
}
export type StepProgram = Generator<Statement, StepCommitResult, StatementResult>;

// Json columns of the tables the step commit writes: stored as JSON text (SQLite) or jsonb.
const JSON_COLUMNS: Record<string, ReadonlySet<string>> = {
  Loop: new Set(["config", "inflightAgent"]),
  Iteration: new Set([
    "evidence",
    "scores",
    "validation",
    "verification",
    "reflection",
    "toolCalls",
    "workspace",
    "diagnostics",
    "transcript",
  ]),
  LoopEvent: new Set(["payload"]),
  ControlRequest: new Set(["payload"]),
  Approval: new Set(["context"]),
};

/** One value bound for this column (a write's input may hold Prisma's null sentinels: StepWrite is typed by it). */
export function encodeValue(encoding: StepEncoding, table: string, column: string, value: unknown): unknown {
  if (value === null || value === Prisma.DbNull) return null;
  if (JSON_COLUMNS[table]?.has(column)) return value === Prisma.JsonNull ? "null" : JSON.stringify(value);
  if (value instanceof Date) return encoding.date(value);
  if (typeof value === "boolean") return encoding.bool(value);
  return value;
}

const q = (name: string) => `"${name}"`;
const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");

/** INSERT of rows that share their columns (undefined values are left to the column default). */
function insert(encoding: StepEncoding, table: string, rows: Record<string, unknown>[], returning?: string): Statement {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => r[k] !== undefined)))];
  const params: unknown[] = [];
  for (const row of rows) for (const c of columns) params.push(encodeValue(encoding, table, c, row[c] ?? null));
  const values = rows.map(() => `(${marks(columns.length)})`).join(", ");
  return {
    sql: `INSERT INTO ${q(table)} (${columns.map(q).join(", ")}) VALUES ${values}${returning ? ` RETURNING ${q(returning)}` : ""}`,
    params,
  };
}

/** SET clauses for an update input: plain values, `{ set }`, `{ increment }` or `{ decrement }`. */
function assignments(encoding: StepEncoding, table: string, data: Record<string, unknown>) {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const [column, raw] of Object.entries(data)) {
    if (raw === undefined) continue;
    const op =
      raw && typeof raw === "object" && !(raw instanceof Date) && !JSON_COLUMNS[table]?.has(column)
        ? (raw as Record<string, unknown>)
        : null;
    if (op && "increment" in op) {
      sets.push(`${q(column)} = ${q(column)} + ?`);
      params.push(op.increment);
    } else if (op && "decrement" in op) {
      sets.push(`${q(column)} = ${q(column)} - ?`);
      params.push(op.decrement);
    } else if (op && "set" in op) {
      sets.push(`${q(column)} = ?`);
      params.push(encodeValue(encoding, table, column, op.set));
    } else if (op) {
      throw new Error(`the step commit cannot apply ${Object.keys(op).join(",")} to ${table}.${column}`);
    } else {
      sets.push(`${q(column)} = ?`);
      params.push(encodeValue(encoding, table, column, raw));
    }
  }
  return { sets, params };
}

function* appendEvents(
  encoding: StepEncoding,
  events: NewLoopEvent[],
  now: Date,
): Generator<Statement, void, StatementResult> {
  if (events.length === 0) return;
  const rows = events.map((e) => ({ ...toRow(e), payload: toRow(e).payload ?? null, createdAt: now }));
  const alertable = events.some((e) => ALERTABLE_EVENT_TYPES.has(e.type));
  const stored = yield insert(encoding, "LoopEvent", rows, alertable ? "id" : undefined);
  if (!alertable) return;
  // Multi-row RETURNING lists rows in insertion order on both databases.
  const alerts = alertsOf(
    events.map((e, i) => ({ id: Number(stored.rows[i]!.id), loopId: e.loopId, type: e.type, payload: e.payload })),
  );
  if (alerts.length === 0) return;
  const channels = (yield {
    sql: `SELECT "id", "events", "loopIds", "kind", "createdById" FROM "AlertChannel" WHERE "enabled" = ?`,
    params: [encodeValue(encoding, "AlertChannel", "enabled", true)],
  }).rows as { id: string; events: string; loopIds: string; kind: string; createdById: string | null }[];
  if (channels.length === 0) return;
  const loopIds = [...new Set(alerts.flatMap((a) => (a.event.loopId ? [a.event.loopId] : [])))];
  const mutes = loopIds.length
    ? ((yield {
        sql: `SELECT "loopId", "kind" FROM "AlertMute" WHERE "loopId" IN (${marks(loopIds.length)}) AND ("until" IS NULL OR "until" > ?)`,
        params: [...loopIds, encodeValue(encoding, "AlertMute", "until", now)],
      }).rows as { loopId: string; kind: string }[])
    : [];
  const pushUsers = pushChannelUsers(channels);
  const userMutes = pushUsers.length
    ? ((yield {
        sql: `SELECT "userId", "loopId", "noticeClass" FROM "NoticeMute" WHERE "userId" IN (${marks(pushUsers.length)})`,
        params: pushUsers,
      }).rows as { userId: string; loopId: string; noticeClass: string }[])
    : [];
  const deliveries = deliveryRows(alerts, pushChannels(channels), mutes, now, userMutes);
  if (deliveries.length) yield insert(encoding, "AlertDelivery", deliveries);
}

/**
 * The statements of one safe point (step-write.ts says what each part means),
 * the loop row's update first so its lock is held. Throws the
 * fencing errors; the caller rolls back.
 */
export function* stepProgram(encoding: StepEncoding, unscrubbed: StepWrite, now: Date): StepProgram {
  // What the Prisma client's extension does to every write: no NULs, no lone surrogates. Not the
  // checkpoint, a write's largest text: JSON.stringify and canonical JSON wrote it, and both escape them.
  const { checkpoint: written, ...rest } = unscrubbed;
  const write: StepWrite = { ...scrubText(rest), ...(written ? { checkpoint: written } : {}) };
  const enc = (table: string, column: string, value: unknown) => encodeValue(encoding, table, column, value);
  const owner = "owner" in write.fence ? write.fence.owner : null;
  const inflight = write.nextInflight
    ? { inflightIteration: write.nextInflight.number, inflightAttempt: 1, inflightStartedAt: write.nextInflight.at }
    : { inflightIteration: null, inflightAttempt: null, inflightStartedAt: null };
  const { sets, params } = assignments(encoding, "Loop", {
    ...(write.loop as Record<string, unknown>),
    ...(write.checkpoint ? { checkpointId: write.checkpoint.id } : {}),
    ...inflight,
    inflightAgent: null,
    updatedAt: now,
  });
  const fence =
    owner !== null
      ? { sql: `"leaseOwner" = ?`, params: [owner] }
      : { sql: `"version" = ? AND "leaseOwner" IS NULL`, params: [(write.fence as { version: number }).version] };
  const updated = yield {
    sql: `UPDATE "Loop" SET ${[...sets, `"version" = "version" + 1`].join(", ")} WHERE "id" = ? AND ${fence.sql}`,
    params: [...params, write.loopId, ...fence.params],
  };
  if (updated.changes !== 1) throw owner !== null ? new LeaseLostError(write.loopId) : new StaleLoopError(write.loopId);

  if (write.iteration) {
    yield insert(encoding, "Iteration", [
      { ...(write.iteration.row as Record<string, unknown>), loopId: write.loopId, attempt: write.iteration.attempt },
    ]);
  }
  if (write.checkpoint) {
    const { parts, ...checkpoint } = write.checkpoint;
    if (parts?.length) {
      // Content-addressed: a part another checkpoint of the loop stored already is the same text.
      const rows = parts.map((p) => ({ loopId: write.loopId, hash: p.hash, body: p.body }));
      const stmt = insert(encoding, "CheckpointPart", rows);
      yield { sql: `${stmt.sql} ON CONFLICT ("loopId", "hash") DO NOTHING`, params: stmt.params };
    }
    yield insert(encoding, "Checkpoint", [{ ...checkpoint, loopId: write.loopId, createdAt: now }]);
  }
  for (const request of write.newControls ?? []) {
    const status = request.status ?? "pending";
    yield insert(encoding, "ControlRequest", [
      {
        id: request.id,
        loopId: request.loopId,
        kind: request.kind,
        payload: request.payload ?? undefined,
        actorId: request.actorId,
        actor: request.actor,
        reason: request.reason,
        status,
        result: request.result ?? null,
        appliedAt: status !== "pending" ? now : null,
        createdAt: now,
      },
    ]);
  }
  yield* appendEvents(encoding, write.events, now);
  for (const ack of write.acks) {
    const done = yield {
      sql: `UPDATE "ControlRequest" SET "status" = ?, "result" = ?, "appliedAt" = ? WHERE "id" = ? AND "status" = ?`,
      params: [ack.outcome, ack.note, enc("ControlRequest", "appliedAt", new Date(ack.at)), ack.requestId, "pending"],
    };
    if (done.changes !== 1) throw new ControlAlreadySettledError(ack.requestId);
  }
  if (write.ended) {
    const pending = (yield {
      // A late spend report is not a control: it still applies after the end (stranded-spend.repo.ts).
      sql: `SELECT "id", "kind", "actorId", "actor" FROM "ControlRequest" WHERE "loopId" = ? AND "status" = ? AND "kind" <> ? ORDER BY "createdAt" ASC, "id" ASC`,
      params: [write.loopId, "pending", "record_spend"],
    }).rows as { id: string; kind: string; actorId: string | null; actor: string }[];
    if (pending.length) {
      const note = `the loop ended (${String(write.loop.status)}) before this was applied`;
      yield {
        sql: `UPDATE "ControlRequest" SET "status" = ?, "result" = ?, "appliedAt" = ? WHERE "id" IN (${marks(pending.length)}) AND "status" = ?`,
        params: ["rejected", note, enc("ControlRequest", "appliedAt", now), ...pending.map((p) => p.id), "pending"],
      };
      yield* appendEvents(
        encoding,
        pending.map((p) => ({
          loopId: write.loopId,
          type: "control_rejected",
          actorId: p.actorId,
          actor: p.actor,
          reason: note,
          payload: { requestId: p.id, command: p.kind },
        })),
        now,
      );
    }
  }
  for (const d of write.decidedApprovals ?? []) {
    yield {
      sql: `UPDATE "Approval" SET "status" = ?, "comment" = ?, "decidedBy" = ?, "decidedById" = ?, "decidedAt" = ? WHERE "id" = ? AND "status" = ?`,
      params: [d.status, d.comment, d.by, d.byId, enc("Approval", "decidedAt", d.at), d.id, "pending"],
    };
  }
  if (write.openApproval) {
    const seen = yield { sql: `SELECT 1 AS "one" FROM "Approval" WHERE "id" = ?`, params: [write.openApproval.id] };
    if (seen.rows.length === 0) {
      const { context, ...approval } = write.openApproval;
      yield insert(encoding, "Approval", [
        { ...approval, loopId: write.loopId, context: context ?? undefined, requestedAt: now },
      ]);
    }
  }
  if (owner === null) return { released: false };
  // After the loop row's update, so its lock is held: a request stored for this runtime either committed
  // before this read (and is returned, so the next safe point applies it without reading again) or waits
  // for this commit and is read by the next safe point's Halt phase.
  const pending = decodePendingControls(encoding, (yield pendingControlsStatement(encoding, write.loopId)).rows);
  if (!write.release || pending.length) return { released: false, pendingControls: pending };
  yield {
    sql: `UPDATE "Loop" SET "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ? WHERE "id" = ? AND "leaseOwner" = ?`,
    params: [enc("Loop", "updatedAt", now), write.loopId, owner],
  };
  return { released: true };
}

/** A loop's pending requests, oldest first: what a safe point applies. */
export function pendingControlsStatement(encoding: StepEncoding, loopId: string): Statement {
  return {
    sql: `SELECT "id", "kind", "payload", "actorId", "actor", "reason", ${encoding.createdAtColumn} FROM "ControlRequest" WHERE "loopId" = ? AND "status" = ? ORDER BY "createdAt" ASC, "id" ASC`,
    params: [loopId, "pending"],
  };
}

/** Rows of pendingControlsStatement as the runtime uses them (Json parsed, dates as Date). */
export function decodePendingControls(encoding: StepEncoding, rows: Record<string, unknown>[]): PendingControl[] {
  return rows.map((row) => ({
    id: String(row.id),
    kind: String(row.kind),
    payload: encoding.json(row.payload),
    actorId: (row.actorId as string | null) ?? null,
    actor: String(row.actor),
    reason: (row.reason as string | null) ?? null,
    createdAt: decodeTimestamp(row.createdAt),
  }));
}
