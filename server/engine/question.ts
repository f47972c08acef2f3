/**
 * Asked-a-question detection on the agent's final message: headless agents
 * often stop to ask ("Should add() also accept strings? Please confirm"),
 * and re-sending the same prompt then burns iterations until no_progress.
 * Rules only; the last paragraph is what a CLI agent ends its turn with.
 */
const ASKING = [
  /\bplease (confirm|advise|let me know|clarify)\b/i,
  /\b(should|shall) I\b/i,
  /\bwould you (like|prefer)\b/i,
  /\bdo you want( me)?\b/i,
  /\bI need you to\b/i,
  /\bblocked on\b/i,
  /\bcan you (confirm|clarify|tell me)\b/i,
];

/** Characters of the question kept for the next input and the timeline. */
const QUESTION_CHARS = 500;

/** The question the final message asks the operator, or null. */
export function detectQuestion(output: string): string | null {
  const paragraphs = output
    .replace(/<promise>[\s\S]*?<\/promise>/gi, "")
    .trim()
    .split(/\n\s*\n/);
  const last = paragraphs[paragraphs.length - 1]?.trim() ?? "";
  if (last === "") return null;
  const asks = ASKING.some((rule) => rule.test(last)) || /\?\s*$/.test(last);
  return asks ? last.slice(-QUESTION_CHARS) : null;
}
