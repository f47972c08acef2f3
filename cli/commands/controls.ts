// The operator controls, with the same rules and errors as the UI: the server
// stores each request with who and why, applies it at the loop's next safe
// point, and answers CONFLICT (exit 1, with the reason) when it makes no sense.
import type { Command } from "commander";
import { createRalphClient, type RalphClient } from "../api";
import { loadConfig } from "../config";
import { UsageError } from "../errors";

interface ControlOptions {
  reason?: string;
  message?: string;
  comment?: string;
}

type Control = {
  name: string;
  description: string;
  run: (
    client: RalphClient,
    id: string,
    opts: ControlOptions,
    text: string | undefined,
  ) => Promise<{ outcome: string; note: string; status: string }>;
  /** A free-text argument after the id (nudge, answer). */
  text?: "required" | "optional";
  comment?: boolean;
};

/** A control that carries nothing but the operator's reason. */
function reasonOnly(
  name: string,
  description: string,
  procedure: "interrupt" | "kill" | "resume" | "forceHandoff" | "terminate",
): Control {
  return { name, description, run: (c, id, o) => c.loops.controls[procedure].mutate({ id, reason: o.reason }) };
}

const CONTROLS: Control[] = [
  reasonOnly("interrupt", "pause after the current iteration", "interrupt"),
  reasonOnly("kill", "abort the running agent now (the iteration is recorded as interrupted) and pause", "kill"),
  reasonOnly("resume", "resume a paused loop", "resume"),
  reasonOnly("handoff", "start the next iteration from a fresh context with a continuation note", "forceHandoff"),
  reasonOnly("terminate", "stop the loop for good", "terminate"),
  {
    name: "nudge",
    description: "add a message to the agent's next prompt",
    text: "required",
    run: (c, id, o, text) => c.loops.controls.nudge.mutate({ id, reason: o.reason, message: text! }),
  },
  {
    name: "answer",
    description: "answer the question a loop in needs_attention waits on; without text it continues unanswered",
    text: "optional",
    run: (c, id, o, text) => c.loops.controls.answer.mutate({ id, reason: o.reason, message: text ?? "" }),
  },
  {
    name: "approve",
    description: "approve the pending approval gate",
    comment: true,
    run: (c, id, o) => c.loops.controls.approve.mutate({ id, reason: o.reason, comment: o.comment }),
  },
  {
    name: "reject",
    description: "reject the pending approval gate",
    comment: true,
    run: (c, id, o) => c.loops.controls.reject.mutate({ id, reason: o.reason, comment: o.comment }),
  },
  {
    name: "request-changes",
    description: "send the loop back to work with a comment",
    comment: true,
    run: (c, id, o) => {
      if (!o.comment) throw new UsageError("request-changes needs --comment");
      return c.loops.controls.requestChanges.mutate({ id, reason: o.reason, comment: o.comment });
    },
  },
];

const ALERT_KINDS = ["attention", "approval", "budget", "runaway", "health", "loop_ended", "*"] as const;

function alertKind(kind: string): (typeof ALERT_KINDS)[number] {
  if (!(ALERT_KINDS as readonly string[]).includes(kind))
    throw new UsageError(`kind must be one of ${ALERT_KINDS.join(", ")}`);
  return kind as (typeof ALERT_KINDS)[number];
}

/** "30m", "2h", "1d" → minutes. */
export function snoozeMinutes(value: string): number {
  const match = /^(\d+)\s*([mhd]?)$/i.exec(value.trim());
  if (!match || Number(match[1]) < 1) throw new UsageError(`--for takes e.g. 30m, 2h or 1d, got "${value}"`);
  const n = Number(match[1]);
  const unit = (match[2] || "m").toLowerCase();
  return unit === "d" ? n * 1440 : unit === "h" ? n * 60 : n;
}

function alertMuteCommands(program: Command) {
  program
    .command("mute")
    .description(`mute one alert kind for a loop (${ALERT_KINDS.join(", ")}); with --for, a snooze`)
    .argument("<id>", "loop id")
    .argument("<kind>", "the alert kind, or * for all")
    .option("--for <duration>", "snooze for e.g. 30m, 2h, 1d (default: until unmuted)")
    .action(async (id: string, kind: string, opts: { for?: string }) => {
      const minutes = opts.for ? snoozeMinutes(opts.for) : null;
      const result = await createRalphClient(loadConfig()).alerts.mute.mutate({
        loopId: id,
        kind: alertKind(kind),
        minutes,
      });
      console.log(`${kind} alerts for ${id} muted${result.until ? ` until ${result.until.toISOString()}` : ""}`);
    });
  program
    .command("unmute")
    .description("unmute an alert kind for a loop")
    .argument("<id>", "loop id")
    .argument("<kind>", "the alert kind, or *")
    .action(async (id: string, kind: string) => {
      await createRalphClient(loadConfig()).alerts.unmute.mutate({ loopId: id, kind: alertKind(kind) });
      console.log(`${kind} alerts for ${id} unmuted`);
    });
}

export function controlCommands(program: Command) {
  alertMuteCommands(program);
  for (const control of CONTROLS) {
    const command = program
      .command(control.name)
      .description(control.description)
      .argument("<id>", "loop id")
      .option("--reason <text>", "why (kept in the audit log)");
    if (control.text) command.argument("<text...>", "the message");
    if (control.comment) command.option("--comment <text>", "a comment for the agent and the audit log");
    command.action(async (id: string, ...rest: unknown[]) => {
      const text = control.text ? (rest[0] as string[]).join(" ") : undefined;
      const opts = (control.text ? rest[1] : rest[0]) as ControlOptions;
      const result = await control.run(createRalphClient(loadConfig()), id, opts, text);
      const when = result.outcome === "applied" ? "applied" : "stored; applied at the next safe point";
      console.log(`${control.name} ${id}: ${when}${result.note ? ` (${result.note})` : ""}; status ${result.status}`);
    });
  }
}
