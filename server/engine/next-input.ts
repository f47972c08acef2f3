/**
 * The Plan phase's product: the next agent input. The layout is a stable
 * contract (adapters and the UI may rely on it): the original goal, then
 * these sections in this order, each only when it has content, separated by
 * a blank line:
 *
 *   [Completion protocol] how to claim done, and that the claim is checked
 *   [Claim rejected]      the previous "done" claim the evidence did not confirm
 *   [Agent question]      the agent's question with the operator's answer, or the standing instruction
 *   [Previous feedback]   reflection suggestions, or the last error
 *   [Failing tests]       command checks' failing tests, files and first message lines
 *   [Validation]          validator errors from the previous iteration
 *   [Verifier]            the verifier's reason it is not complete yet
 *   [Operator nudge]      operator nudges since the previous iteration
 *   [Approval comment]    comments given at an approval gate
 *   [Health reminder]     nudges from the health monitor
 *   [Continuation]        the handoff continuation prompt
 *
 * Retries inside one iteration append a final `[Retry]` section.
 *
 * The evidence comes from the previous iteration whatever its mean score; the
 * reflection is only one of the sections. Each section body is capped at
 * SECTION_CHARS with a visible truncation marker, so a flood of test output
 * cannot push the goal and the protocol out of the agent's context.
 */
import { inputSections, type QuestionPolicy } from "./config.schema";
import type { Note, PlanParts } from "./snapshot";
import { testsSectionBody } from "./test-feedback";

export { inputSections };
export type InputSectionName = (typeof inputSections)[number];
export type InputSection = InputSectionName | "Retry";

/** The Ralph convention the agent adapters' claim parsers recognise. */
export const COMPLETION_SIGNAL = "<promise>COMPLETE</promise>";

/** The [Completion protocol] section for the loop's claim signal (completion.signal). */
export function completionProtocol(signal: string = COMPLETION_SIGNAL): string {
  return (
    `When, and only when, the goal is fully achieved, end your final message with ${signal}. ` +
    "The claim is checked against the evidence (tests, verifier, validators) and never completes the loop " +
    "on its own; a false claim is reported back to you. If you are not done, do not print it."
  );
}

export const COMPLETION_PROTOCOL = completionProtocol();

/** Characters of one section's body; the goal itself is never cut. */
export const SECTION_CHARS = 4000;

export interface InputParts {
  plan: PlanParts;
  /** The sections the loop's template keeps; all of them when absent. */
  sections?: readonly InputSectionName[];
  /** What an unanswered question gets (question.policy); "auto-answer" when absent. */
  questionPolicy?: QuestionPolicy;
  /** The completion protocol text, or null when the loop does not announce one. */
  protocol?: string | null;
  nudges: readonly Note[];
  approvalComments: readonly Note[];
  reminders: readonly string[];
}

const bullets = (items: readonly string[]) => items.map((item) => `- ${item}`).join("\n");

export function section(name: InputSection, body: string): string {
  return `[${name}]\n${body}`;
}

const quoted = (text: string) => `> ${text.replace(/\n/g, "\n> ")}`;

/**
 * The operator's answer when there is one (question.policy "ask");
 * otherwise a standing instruction keeps the loop moving instead of
 * re-sending the same prompt ("auto-answer", or "continue without
 * answering"). "ignore" adds nothing.
 */
// Who answered stays in the audit trail; the prompt carries only what was said.
export function questionBody(question: string, answer?: Note, policy: QuestionPolicy = "auto-answer"): string {
  const asked = `Your previous message asked:\n${quoted(question)}`;
  if (answer) return `${asked}\nThe operator answered:\n${quoted(answer.text)}\nFollow this answer and continue.`;
  if (policy === "ignore") return "";
  return `${asked}\nNo operator is answering. Make a reasonable choice, state it, and continue.`;
}

/** Keeps the head of an over-long body and says how much was cut. */
export function capBody(body: string, max = SECTION_CHARS): string {
  if (body.length <= max) return body;
  const marker = (cut: number) => `\n… [truncated ${cut} characters]`;
  const keep = Math.max(0, max - marker(body.length).length);
  return body.slice(0, keep) + marker(body.length - keep);
}

export function composeInput(goal: string, parts: InputParts): string {
  const bodies: Record<(typeof inputSections)[number], string> = {
    "Completion protocol": parts.protocol ?? "",
    "Claim rejected": parts.plan.rejectedClaim ?? "",
    "Agent question": parts.plan.question
      ? questionBody(parts.plan.question, parts.plan.answer, parts.questionPolicy)
      : "",
    "Previous feedback": bullets(parts.plan.feedback),
    "Failing tests": testsSectionBody(parts.plan.tests),
    Validation: bullets(parts.plan.validation),
    Verifier: parts.plan.verifier ?? "",
    "Operator nudge": bullets(parts.nudges.map((n) => n.text)),
    "Approval comment": bullets(parts.approvalComments.map((n) => n.text)),
    "Health reminder": bullets(parts.reminders),
    Continuation: parts.plan.continuation ?? "",
  };
  const blocks = [goal];
  const keep = new Set(parts.sections ?? inputSections);
  for (const name of inputSections)
    if (keep.has(name) && bodies[name] !== "") blocks.push(section(name, capBody(bodies[name])));
  return blocks.join("\n\n");
}

export function retryInput(input: string, attempt: number, failures: readonly string[]): string {
  return `${input}\n\n${section("Retry", `Attempt ${attempt}. Earlier attempts failed:\n${bullets(failures)}`)}`;
}
