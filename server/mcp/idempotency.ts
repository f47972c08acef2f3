/**
 * Mutating MCP tools are idempotent by a key the client sends with each call
 * (the MCP spec's idempotentHint: the same arguments have no further effect).
 * Per user, the first call with a key claims it and stores its answer; a
 * repeat with the same tool and arguments gets that answer and runs nothing;
 * the same key with another request is refused. A call that changed nothing
 * (refused by role or input, the database unavailable) releases its key, so
 * the client may retry it. A CONFLICT is kept: the API stored the refused
 * request and audited it, and a repeat must not audit it twice.
 */
import { createHash } from "node:crypto";
import { TRPCError } from "@trpc/server";
import type { Database } from "../db/client";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  pruneIdempotencyKeys,
  releaseIdempotencyKey,
} from "../db/idempotency-keys.repo";
import { canonicalJson } from "../engine";

/** A key is remembered this long: a retry later than that is a new request. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** What a tool answered: its data, or the API's refusal (code and message). */
export type StoredAnswer = { ok: true; data: unknown } | { ok: false; code: string; message: string };

export class IdempotencyError extends Error {}

const requestHash = (tool: string, args: unknown) =>
  createHash("sha256").update(canonicalJson({ tool, args })).digest("hex");

/** Refusals that changed nothing: the key is released instead of remembered. */
const NOTHING_CHANGED = new Set([
  "UNAUTHORIZED",
  "FORBIDDEN",
  "BAD_REQUEST",
  "NOT_FOUND",
  "TOO_MANY_REQUESTS",
  "SERVICE_UNAVAILABLE",
  "INTERNAL_SERVER_ERROR",
  "TIMEOUT",
]);

export async function idempotent(
  db: Database,
  call: { userId: string; key: string; tool: string; args: unknown; now: number },
  run: () => Promise<unknown>,
): Promise<StoredAnswer> {
  const hash = requestHash(call.tool, call.args);
  const at = new Date(call.now);
  await pruneIdempotencyKeys(db.prisma, new Date(call.now - IDEMPOTENCY_TTL_MS));
  const held = await claimIdempotencyKey(db.prisma, {
    userId: call.userId,
    key: call.key,
    tool: call.tool,
    requestHash: hash,
    at,
  });
  if (held) {
    if (held.tool !== call.tool || held.requestHash !== hash)
      throw new IdempotencyError(
        `Idempotency key "${call.key}" was already used for a different request (${held.tool}); use a new key for a new request`,
      );
    if (held.response === null)
      throw new IdempotencyError(`The request with idempotency key "${call.key}" is still running; retry shortly`);
    return JSON.parse(held.response) as StoredAnswer;
  }
  let answer: StoredAnswer;
  try {
    answer = { ok: true, data: JSON.parse(JSON.stringify((await run()) ?? null)) as unknown };
  } catch (error) {
    if (!(error instanceof TRPCError) || NOTHING_CHANGED.has(error.code)) {
      await releaseIdempotencyKey(db.prisma, call.userId, call.key);
      throw error;
    }
    answer = { ok: false, code: error.code, message: error.message };
  }
  await completeIdempotencyKey(db.prisma, call.userId, call.key, JSON.stringify(answer));
  return answer;
}
