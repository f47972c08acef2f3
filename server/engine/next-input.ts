/**
 * The Plan phase's product: the next agent input. The layout is a stable
 * contract (adapters and the UI may rely on it): the original goal, then
 * these sections in this order, each only when it has content, separated by
 * a blank line:
 *
 *   [Previous feedback]   reflection suggestions, or the last error
 *   [Validation]          validator errors from the previous iteration
 *   [Verifier]            the verifier's reason it is not complete yet
 *   [Operator nudge]      operator nudges since the previous iteration
 *   [Approval comment]    comments given at an approval gate
 *   [Health reminder]     nudges from the health monitor
 *   [Continuation]        the handoff continuation prompt
 *
 * Retries inside one iteration append a final `[Retry]` section.
 */
import type { Note, PlanParts } from "./snapshot";

export const inputSections = [
  "Previous feedback",
  "Validation",
  "Verifier",
  "Operator nudge",
  "Approval comment",
  "Health reminder",
  "Continuation",
] as const;
export type InputSection = (typeof inputSections)[number] | "Retry";

export interface InputParts {
  plan: PlanParts;
  nudges: readonly Note[];
  approvalComments: readonly Note[];
  reminders: readonly string[];
}

const bullets = (items: readonly string[]) => items.map((item) => `- ${item}`).join("\n");

export function section(name: InputSection, body: string): string {
  return `[${name}]\n${body}`;
}

export function composeInput(goal: string, parts: InputParts): string {
  const bodies: Record<(typeof inputSections)[number], string> = {
    "Previous feedback": bullets(parts.plan.feedback),
    Validation: bullets(parts.plan.validation),
    Verifier: parts.plan.verifier ?? "",
    "Operator nudge": bullets(parts.nudges.map((n) => n.text)),
    "Approval comment": bullets(parts.approvalComments.map((n) => n.text)),
    "Health reminder": bullets(parts.reminders),
    Continuation: parts.plan.continuation ?? "",
  };
  const blocks = [goal];
  for (const name of inputSections) if (bodies[name] !== "") blocks.push(section(name, bodies[name]));
  return blocks.join("\n\n");
}

export function retryInput(input: string, attempt: number, failures: readonly string[]): string {
  return `${input}\n\n${section("Retry", `Attempt ${attempt}. Earlier attempts failed:\n${bullets(failures)}`)}`;
}
