/**
 * Delivers the alert outbox: claim due rows with a lease, send each signed,
 * record the outcome. At least once: a row is only marked delivered after a
 * 2xx, and a deliverer that dies mid-send leaves its rows to the next one when
 * the lease runs out. Receivers de-duplicate by the Idempotency-Key header
 * (the row id, the same on every attempt). Failures back off exponentially
 * (with jitter) and end in the "dead" state after `maxAttempts`, or at once
 * when retrying cannot help (the receiver says the URL is gone or refuses us,
 * or the SSRF guard refuses the address).
 */
import { AgentError } from "../agents/agent-error";
import { guardedFetch } from "../agents/guarded-fetch";
import type { Database } from "../db/client";
import {
  approvalForAlert,
  claimDueDeliveries,
  deleteChannel,
  eventForAlert,
  PUSH_CHANNEL_KIND,
  loopForAlert,
  saveDeliveryMessage,
  settleDelivery,
  type ClaimedDelivery,
} from "../db/alerts.repo";
import { openSecret, type SecretKey } from "../secrets/secret-box";
import type { AlertKind } from "../alert-kinds";
import { bodyFor, buildAlertMessage, type AlertMessage } from "./alert-messages";
import { SIGNATURE_HEADER, signBody } from "./alert-signing";
import type { VapidKeys } from "../secrets/vapid-keys";
import { pushNoticeOf, pushRequest, type PushKeys } from "./push-notice";

export interface DeliveryPolicy {
  /** First retry after about this long; each further one waits twice as long. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Attempts before a row is dead-lettered. */
  maxAttempts: number;
  /** One attempt may take this long (a hanging receiver is cut off). */
  timeoutMs: number;
  /** Rows taken per pass. */
  batch: number;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  baseDelayMs: 5_000,
  maxDelayMs: 3_600_000,
  maxAttempts: 10,
  timeoutMs: 10_000,
  batch: 20,
};

export interface DeliveryDeps {
  now: () => number;
  random: () => number;
  key: SecretKey;
  /** Where deep links point (RALPH_PUBLIC_URL). */
  publicUrl: string;
  /** Loopback or private hosts channels may reach (RALPH_ALERT_ALLOW_HOSTS). */
  allowHosts: readonly string[];
  /** Unique per deliverer process: the lease owner. */
  owner: string;
  /** The server's VAPID keys, for browsers' push subscriptions (channels of kind "webpush"). */
  vapid?: VapidKeys;
  policy?: Partial<DeliveryPolicy>;
}

export const channelUrlRowId = (channelId: string) => `${channelId}:url`;
export const channelSecretRowId = (channelId: string) => `${channelId}:signing-secret`;

/** Statuses that say "this will never work": dead at once rather than retried for hours. */
const PERMANENT = new Set([400, 401, 403, 404, 405, 410, 413, 422]);

export function backoffMs(attempt: number, policy: DeliveryPolicy, random: () => number): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp * (0.5 + random() / 2));
}

async function messageFor(db: Database, row: ClaimedDelivery, deps: DeliveryDeps): Promise<AlertMessage> {
  if (row.message) return JSON.parse(row.message) as AlertMessage;
  const [event, loop] = await Promise.all([
    row.eventId === null ? null : eventForAlert(db.prisma, row.eventId),
    row.loopId ? loopForAlert(db.prisma, row.loopId) : null,
  ]);
  const gateId = (event?.payload as { gateId?: unknown } | null)?.gateId;
  const approval =
    row.kind === "approval" && typeof gateId === "string" ? await approvalForAlert(db.prisma, gateId) : null;
  const message = buildAlertMessage({
    id: row.id,
    kind: row.kind as AlertKind | "test",
    event,
    loop,
    approval,
    publicUrl: deps.publicUrl,
    now: new Date(deps.now()),
  });
  await saveDeliveryMessage(db.prisma, row.id, deps.owner, JSON.stringify(message));
  return message;
}

type Outcome = "delivered" | "retry" | "dead" | "lost";

/** A push service's word that the subscription is gone (the browser revoked it): never retried. */
const SUBSCRIPTION_GONE = new Set([404, 410]);

/** The request for one row: a signed JSON POST, or for a push subscription an encrypted Web Push. */
function requestFor(row: ClaimedDelivery, message: AlertMessage, url: string, secret: string, deps: DeliveryDeps) {
  if (row.channel.kind === PUSH_CHANNEL_KIND) {
    if (!deps.vapid) throw new Error("this deliverer has no VAPID keys for push subscriptions");
    const push = pushRequest(url, JSON.parse(secret) as PushKeys, pushNoticeOf(message), deps.vapid, deps.publicUrl);
    return { method: "POST", body: new Uint8Array(push.body), headers: push.headers };
  }
  const body = JSON.stringify(bodyFor(row.channel.kind, message));
  return {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "user-agent": "RalphControl-Alerts/1",
      "idempotency-key": row.id,
      "x-ralph-delivery": row.id,
      "x-ralph-alert": row.kind,
      [SIGNATURE_HEADER]: signBody(secret, body, Math.floor(deps.now() / 1000)),
    },
  };
}

async function deliverOne(db: Database, row: ClaimedDelivery, deps: DeliveryDeps, policy: DeliveryPolicy) {
  const send = guardedFetch(deps.allowHosts);
  let httpStatus: number | null = null;
  let error: string;
  let permanent = false;
  try {
    const message = await messageFor(db, row, deps);
    const url = openSecret(deps.key, channelUrlRowId(row.channel.id), row.channel.urlCiphertext);
    const secret = openSecret(deps.key, channelSecretRowId(row.channel.id), row.channel.secretCiphertext);
    const response = await send(url, {
      ...requestFor(row, message, url, secret, deps),
      signal: AbortSignal.timeout(policy.timeoutMs),
    });
    httpStatus = response.status;
    await response.body?.cancel().catch(() => undefined);
    if (response.ok) {
      const settled = await settleDelivery(db.prisma, row.id, deps.owner, {
        status: "delivered",
        httpStatus,
        at: new Date(deps.now()),
      });
      return settled ? "delivered" : "lost";
    }
    error = `HTTP ${httpStatus}`;
    permanent = PERMANENT.has(httpStatus);
    if (row.channel.kind === PUSH_CHANNEL_KIND && SUBSCRIPTION_GONE.has(httpStatus)) {
      // The browser revoked it: the subscription goes (its delivery rows with it), so nothing retries it.
      await deleteChannel(db.prisma, row.channel.id);
      console.warn(`Push subscription ${row.channel.id} removed: the push service answered ${httpStatus}`);
      return "dead";
    }
  } catch (caught) {
    const e = caught as Error;
    error = e.name === "TimeoutError" ? `no answer within ${policy.timeoutMs} ms` : e.message || String(e);
    permanent = caught instanceof AgentError && !caught.retryable;
  }
  const attempt = row.attempts + 1;
  const dead = permanent || attempt >= policy.maxAttempts;
  const settled = await settleDelivery(db.prisma, row.id, deps.owner, {
    status: dead ? "dead" : "pending",
    httpStatus,
    error,
    nextAttemptAt: new Date(deps.now() + (dead ? 0 : backoffMs(attempt, policy, deps.random))),
  });
  return settled ? (dead ? "dead" : "retry") : "lost";
}

/** One pass over the due rows. Returns what happened to each, for logs and tests. */
export async function deliverDueAlerts(db: Database, deps: DeliveryDeps): Promise<Record<Outcome, number>> {
  const policy = { ...DEFAULT_DELIVERY_POLICY, ...deps.policy };
  const now = deps.now();
  const rows = await claimDueDeliveries(db.prisma, {
    owner: deps.owner,
    now: new Date(now),
    // Long enough for every attempt of the batch to finish (they run side by side) and settle.
    leaseUntil: new Date(now + policy.timeoutMs * 2 + 5_000),
    limit: policy.batch,
  });
  const counts: Record<Outcome, number> = { delivered: 0, retry: 0, dead: 0, lost: 0 };
  const outcomes = await Promise.all(rows.map((row) => deliverOne(db, row, deps, policy)));
  for (const outcome of outcomes) counts[outcome]++;
  return counts;
}

export interface AlertDeliverer {
  /** Runs a pass now (e.g. right after "send test"). */
  poke(): void;
  stop(): Promise<void>;
}

/** Delivers in the background: a pass every `intervalMs`, and at once again while passes come back full. */
export function startAlertDeliverer(db: Database, deps: DeliveryDeps, intervalMs = 1_000): AlertDeliverer {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const batch = deps.policy?.batch ?? DEFAULT_DELIVERY_POLICY.batch;
  const pass = () => {
    clearTimeout(timer);
    running = running.then(async () => {
      if (stopped) return;
      let full = false;
      try {
        const counts = await deliverDueAlerts(db, deps);
        full = counts.delivered + counts.retry + counts.dead + counts.lost >= batch;
      } catch (error) {
        console.error("Alert delivery pass failed:", (error as Error).message);
      }
      if (!stopped) timer = setTimeout(pass, full ? 0 : intervalMs);
    });
  };
  pass();
  return {
    poke: pass,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
