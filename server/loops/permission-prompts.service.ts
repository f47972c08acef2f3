/**
 * Permission prompts inside an iteration (Claude Code's --permission-prompt-tool): the
 * gate the agent's permission server asks (stores the prompt, waits), the operator's
 * answer, and the settling that makes sure no prompt outlives its deadline or its loop.
 *
 * Who decides, first one wins (a conditional update, so any process may try):
 * - an operator, before the deadline (`answerPermission`); after it the answer is refused;
 * - the deadline: the waiting call applies the policy's default itself; if that process is
 *   gone (a restart), whoever reads or sweeps applies it (`settlePermissionPrompts`);
 * - the loop: a prompt of a loop no longer running (killed, finished) or of an attempt that
 *   ended is denied. The waiting call answers the agent with whatever was decided.
 */
import type { PermissionPolicy } from "../agents/permission-policy.schema";
import type { PermissionAnswer, PermissionAsk, PermissionGate } from "../agents/permission-server";
import {
  createPermissionRequest,
  decidePermissionRequest,
  duePermissionRequests,
  getPermissionRequest,
  loopPermissionRequests,
  loopStatusOf,
  strandedPermissionRequests,
  type PermissionDecision,
} from "../db/permission-requests.repo";
import { loopDefinitionById } from "../db/loops.repo";
import { conflict, notFound } from "../errors";
import { notifyEventsWritten } from "../events/event-wakeups";
import { actorName, type ActingAs, type LoopServices } from "./loop-services";

const POLL_MS = 500;

/** What deciding needs: storage and the clock (any process running the loop has them). */
type GateServices = Pick<LoopServices, "db" | "engine">;

type Row = NonNullable<Awaited<ReturnType<typeof getPermissionRequest>>>;

const answerOf = (row: Row): PermissionAnswer =>
  row.status === "allowed"
    ? { behavior: "allow", message: row.message ?? "" }
    : {
        behavior: "deny",
        message: `Permission denied by ${row.decidedBy ?? "Ralph Control"}${row.message ? `: ${row.message}` : ""}`,
      };

/** Decides `row` once and records who and why; the decision that won (this one or an earlier one). */
async function decide(svc: GateServices, row: Row, d: Omit<PermissionDecision, "decidedAt">, why: string) {
  const decided = await decidePermissionRequest(
    svc.db.prisma,
    row.id,
    { ...d, decidedAt: new Date(svc.engine.now()) },
    () => ({
      loopId: row.loopId,
      type: "permission_decided",
      actorId: d.decidedById,
      actor: d.decidedBy,
      reason: why,
      payload: {
        requestId: row.id,
        toolName: row.toolName,
        summary: row.summary.slice(0, 500),
        decision: d.status,
        byDefault: d.byDefault,
        message: d.message,
      },
    }),
  );
  if (decided) void notifyEventsWritten(svc.db);
  return { row: decided ?? (await getPermissionRequest(svc.db.prisma, row.id))!, won: decided !== null };
}

const byDeadline = async (svc: GateServices, row: Row) =>
  (
    await decide(
      svc,
      row,
      {
        status: row.defaultAction === "allow" ? "allowed" : "denied",
        decidedById: null,
        decidedBy: "deadline",
        byDefault: true,
        message: `nobody answered within the deadline; the loop's default (${row.defaultAction}) applied`,
      },
      `deadline passed: default ${row.defaultAction}`,
    )
  ).row;

const bySystem = async (svc: GateServices, row: Row, why: string) =>
  (
    await decide(
      svc,
      row,
      { status: "denied", decidedById: null, decidedBy: "system", byDefault: false, message: why },
      why,
    )
  ).row;

export function permissionGate(svc: GateServices): PermissionGate {
  return {
    async ask(req: PermissionAsk, signal: AbortSignal): Promise<PermissionAnswer> {
      const now = svc.engine.now();
      const deadlineAt = new Date(now + req.policy.deadlineSeconds * 1000);
      let row: Row = await createPermissionRequest(
        svc.db.prisma,
        {
          id: svc.engine.newId(),
          loopId: req.loopId,
          iteration: req.iteration,
          attempt: req.attempt,
          toolName: req.toolName,
          toolUseId: req.toolUseId,
          input: JSON.stringify(req.input),
          summary: req.summary,
          reason: req.reason,
          risk: req.policy.risk,
          requestedAt: new Date(now),
          deadlineAt,
          defaultAction: req.policy.defaultAction,
        },
        {
          loopId: req.loopId,
          type: "permission_requested",
          actor: "agent",
          reason: req.reason,
          payload: {
            toolName: req.toolName,
            summary: req.summary.slice(0, 500),
            risk: req.policy.risk,
            deadlineAt: deadlineAt.toISOString(),
            defaultAction: req.policy.defaultAction,
          },
        },
      );
      void notifyEventsWritten(svc.db);
      // Polled: the answer may come from another process (the web server, a worker).
      while (row.status === "pending") {
        if (signal.aborted) {
          row = await bySystem(svc, row, "the agent's attempt ended before an answer");
          break;
        }
        if (svc.engine.now() >= row.deadlineAt.getTime()) {
          row = await byDeadline(svc, row);
          break;
        }
        const status = await loopStatusOf(svc.db.prisma, row.loopId);
        if (status !== "running") {
          row = await bySystem(svc, row, `the loop is ${status ?? "gone"}`);
          break;
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
        row = (await getPermissionRequest(svc.db.prisma, row.id)) ?? row;
      }
      return answerOf(row);
    },
  };
}

/** Applies due defaults and denies prompts of loops no longer running (all loops, or one). */
export async function settlePermissionPrompts(svc: GateServices, loopId: string | null = null) {
  for (const row of await duePermissionRequests(svc.db.prisma, new Date(svc.engine.now()), 100))
    if (loopId === null || row.loopId === loopId) await byDeadline(svc, row);
  for (const row of await strandedPermissionRequests(svc.db.prisma, loopId, 100))
    await bySystem(svc, row, "the loop stopped running before an answer");
}

/** Whether the loop's agent can ask at all: only Claude Code has the permission-prompt hook. */
function availability(config: unknown): { available: boolean; why: string | null; policy: PermissionPolicy | null } {
  const agent = (config as { agent?: { kind?: string; preset?: string; permissions?: PermissionPolicy } } | null)
    ?.agent;
  if (agent?.kind === "command" && agent.preset === "claude-code")
    return {
      available: true,
      why: agent.permissions ? null : "This loop has no permission policy: Claude Code's own permission mode applies",
      policy: agent.permissions ?? null,
    };
  const what =
    agent?.kind === "command" ? `the ${agent.preset ?? "generic"} command agent` : `a ${agent?.kind ?? "?"} agent`;
  return {
    available: false,
    why: `Permission prompts are not available for ${what}: only Claude Code (the claude-code preset) has a permission-prompt hook`,
    policy: null,
  };
}

/** A loop's prompts, newest first, every due default applied first (so nothing shows pending past its deadline). */
export async function listPermissionPrompts(svc: GateServices, loopId: string) {
  await settlePermissionPrompts(svc, loopId);
  const rows = await loopPermissionRequests(svc.db.prisma, loopId, 50);
  return rows.map(({ input: _input, ...r }) => r);
}

/** What the loop page shows: whether prompts are possible for its agent, its policy, and the prompts. */
export async function permissionPromptsView(svc: GateServices, loopId: string) {
  const loop = await loopDefinitionById(svc.db.prisma, loopId);
  if (!loop) throw notFound("Loop", loopId);
  const { available, why, policy } = availability(loop.config);
  return { available, note: why, policy, prompts: await listPermissionPrompts(svc, loopId) };
}

export async function answerPermission(
  svc: LoopServices,
  id: string,
  answer: { decision: "allow" | "deny"; message?: string | null },
  acting: ActingAs,
) {
  let row = await getPermissionRequest(svc.db.prisma, id);
  if (!row) throw notFound("Permission request", id);
  if (row.status === "pending" && svc.engine.now() >= row.deadlineAt.getTime()) row = await byDeadline(svc, row);
  if (row.status === "pending") {
    const decided = await decide(
      svc,
      row,
      {
        status: answer.decision === "allow" ? "allowed" : "denied",
        decidedById: acting.actor.id,
        decidedBy: actorName(acting.actor),
        byDefault: false,
        message: answer.message ?? acting.reason ?? null,
      },
      acting.reason ??
        answer.message ??
        `operator ${answer.decision === "allow" ? "approved" : "denied"} ${row.toolName}`,
    );
    if (decided.won) return decided.row;
    row = decided.row;
  }
  const when = row.decidedAt?.toISOString() ?? "earlier";
  throw conflict(
    row.byDefault
      ? `Too late: the deadline passed at ${row.deadlineAt.toISOString()} and the default (${row.defaultAction}) was applied`
      : `This permission prompt was already ${row.status} by ${row.decidedBy ?? "someone"} at ${when}`,
    { status: row.status, decidedBy: row.decidedBy, byDefault: row.byDefault },
  );
}
