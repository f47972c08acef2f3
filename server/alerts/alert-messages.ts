// What an alert says, and how each channel kind wants it. Pure: the delivery
// service builds one message per outbox row (kept, so retries resend the very
// same body) and formats it for the channel.
//
// Generic webhook body (schema version 1), signed (see alert-signing.ts):
//   { version: 1, id, kind, class, excerpt, title, summary, url, at,
//     event: { id, type, reason, actor } | null,
//     loop: { id, name, goal, status, stopType, health, iteration, maxIterations, costUsd, budgetUsd, bestScore } | null,
//     data: <the event's payload> }
import { noticeClassOf, noticeExcerpt, noticePath, type AlertKind, type NoticeClass } from "../alert-kinds";

export interface AlertLoop {
  id: string;
  name: string;
  goal: string;
  status: string;
  stopType: string | null;
  stopReason: string | null;
  health: string;
  iteration: number;
  maxIterations: number;
  costUsd: number;
  budgetUsd: number | null;
  bestScore: number | null;
}

export interface AlertEvent {
  id: number;
  type: string;
  reason: string | null;
  actor: string;
  payload: unknown;
  createdAt: Date;
}

export interface AlertMessage {
  version: 1;
  id: string;
  kind: AlertKind | "test";
  /** What it is about (server/alert-kinds.ts); null for a test message. */
  class: NoticeClass | null;
  /** The words that say why: the agent's question, the stop reason. */
  excerpt: string;
  title: string;
  summary: string;
  url: string;
  at: string;
  event: { id: number; type: string; reason: string | null; actor: string } | null;
  loop: Omit<AlertLoop, "stopReason"> | null;
  data: unknown;
}

const usd = (n: number) => `$${n.toFixed(2)}`;
const pct = (n: unknown) => (typeof n === "number" ? `${Math.round(n * 100)}%` : "?");

/** The loop's state in one line. */
export function stateLine(loop: AlertLoop): string {
  const budget = loop.budgetUsd ? ` of ${usd(loop.budgetUsd)}` : "";
  const score = loop.bestScore === null ? "" : `, best score ${loop.bestScore.toFixed(2)}`;
  const stop = loop.stopType ? ` (${loop.stopType})` : "";
  return `${loop.status}${stop}, iteration ${loop.iteration}/${loop.maxIterations}, ${usd(loop.costUsd)}${budget} spent, health ${loop.health}${score}`;
}

export interface AlertApproval {
  deadlineAt: Date | null;
  defaultAction: string;
}

function titleFor(kind: AlertKind, loopName: string, event: AlertEvent, approval: AlertApproval | null): string {
  const p = (event.payload ?? {}) as Record<string, unknown>;
  switch (kind) {
    case "approval": {
      if (event.type === "permission_requested") {
        const summary = String(p.summary ?? "").slice(0, 200);
        return `${loopName} asks permission for ${String(p.toolName ?? "a tool")}: ${summary}; ${String(p.defaultAction ?? "deny")}s by itself at ${String(p.deadlineAt ?? "its deadline")}`;
      }
      const at = approval?.deadlineAt ?? (typeof p.deadlineAt === "number" ? new Date(p.deadlineAt) : null);
      const then = approval ? `${approval.defaultAction}s by itself` : "decides itself";
      const deadline = at ? `; ${then} at ${at.toISOString()}` : "";
      return `${loopName} is waiting for approval (${String(p.kind ?? "gate")})${deadline}`;
    }
    case "budget":
      if (p.alarm === "spend_rate") return `${loopName}: spend rate (${String(p.detail ?? "")})`;
      if (p.action === "THROTTLE") {
        const spent =
          typeof p.costUsd === "number" && typeof p.maxCostUsd === "number" && p.maxCostUsd > 0
            ? ` (${usd(p.costUsd)} of ${usd(p.maxCostUsd)})`
            : "";
        return (
          `${loopName} is throttled by its budget: ${pct(p.usedFraction)} used${spent}; each iteration now waits ` +
          `first, and the loop stops at the budget. Raise the budget (Edit limits) to go on at full pace`
        );
      }
      return `${loopName} crossed its budget threshold: ${pct(p.usedFraction)} used (${String(p.action ?? "alert")})`;
    case "loop_ended":
      if (event.type === "landing_landed") return `${loopName} landed: ${event.reason ?? "on its target"}`;
      return `${loopName} ${String(p.status ?? "ended")} (${String(p.stopType ?? "")})`;
    case "attention":
      if (event.type === "landing_needs_review") return `${loopName}'s landing needs review: ${event.reason ?? ""}`;
      return `${loopName} needs attention: ${String(p.message ?? event.reason ?? "escalated")}`;
    case "health":
      return p.alarm === "silent"
        ? `${loopName}: silent agent (${String(p.detail ?? "no heartbeat")})`
        : `${loopName}: health ${String(p.from ?? "?")} → ${String(p.to ?? "?")}`;
    case "runaway":
      return `${loopName}: runaway (${String(p.detail ?? "iterating unusually fast")})`;
    case "usage_limit":
      return event.type === "limit_wait_ended"
        ? `${loopName} resumes: ${event.reason ?? "the usage limit reset"}`
        : `${loopName} is waiting for the provider's usage limit until ${
            typeof p.until === "number" ? new Date(p.until).toISOString() : "its reset"
          }`;
  }
}

export function buildAlertMessage(input: {
  id: string;
  kind: AlertKind | "test";
  event: AlertEvent | null;
  loop: AlertLoop | null;
  /** For an approval alert: the gate's deadline and default action. */
  approval?: AlertApproval | null;
  publicUrl: string;
  now: Date;
}): AlertMessage {
  const { loop, event } = input;
  const name = loop ? loop.name || `Loop ${loop.id.slice(0, 8)}` : "Ralph Control";
  const title =
    input.kind === "test" || !event
      ? "Test alert from Ralph Control: this channel works"
      : titleFor(input.kind, `"${name}"`, event, input.approval ?? null);
  const { stopReason: _reason, ...loopFacts } = loop ?? ({} as AlertLoop);
  const noticeClass = input.kind === "test" || !event ? null : noticeClassOf(event);
  return {
    version: 1,
    id: input.id,
    kind: input.kind,
    class: noticeClass,
    excerpt: event ? noticeExcerpt(event) : "This channel works",
    title,
    summary: loop ? stateLine(loop) : "No loop: sent from Settings → Alerts",
    url: loop
      ? `${input.publicUrl}${noticeClass ? noticePath(noticeClass, loop.id) : `/loops/${loop.id}`}`
      : `${input.publicUrl}/settings`,
    at: (event?.createdAt ?? input.now).toISOString(),
    event: event ? { id: event.id, type: event.type, reason: event.reason, actor: event.actor } : null,
    loop: loop ? loopFacts : null,
    data: input.approval
      ? {
          ...(event?.payload as object),
          defaultAction: input.approval.defaultAction,
          deadlineAt: input.approval.deadlineAt?.toISOString() ?? null,
        }
      : (event?.payload ?? null),
  };
}

/** The request body for a channel kind: the generic JSON, a Slack Block Kit message or a Discord embed. */
export function bodyFor(channelKind: string, message: AlertMessage): object {
  switch (channelKind) {
    case "slack":
      return {
        text: `${message.title}: ${message.summary}`,
        blocks: [
          { type: "section", text: { type: "mrkdwn", text: `*${message.title}*\n${message.summary}` } },
          {
            type: "actions",
            elements: [
              { type: "button", text: { type: "plain_text", text: "Open in Ralph Control" }, url: message.url },
            ],
          },
        ],
      };
    case "discord":
      return {
        content: message.title.slice(0, 2000),
        embeds: [{ title: message.title.slice(0, 256), description: message.summary, url: message.url }],
        allowed_mentions: { parse: [] },
      };
    default:
      return message;
  }
}
