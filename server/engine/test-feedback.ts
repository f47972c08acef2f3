/**
 * The "[Failing tests]" section of the next input: which tests a command
 * check saw failing, where, and the first line of why, so the next fresh
 * agent starts from the evidence instead of re-running everything blind.
 * The structured form stays in PlanParts.tests for richer composers.
 */
import type { CheckFeedback } from "./snapshot";

/** Characters of one failure message shown to the agent. */
const MESSAGE_CHARS = 300;

function counts(c: CheckFeedback): string {
  const total = c.passed + c.failed + c.errored;
  const parts = [`${c.failed} of ${total} failed`];
  if (c.errored > 0) parts.push(`${c.errored} errored`);
  if (c.skipped > 0) parts.push(`${c.skipped} skipped`);
  return parts.join(", ");
}

function oneCheck(c: CheckFeedback): string[] {
  const exit = c.exitCode === null ? "" : `, exit ${c.exitCode}`;
  const head = c.counted
    ? `${c.check}: ${counts(c)} (${c.runner ?? c.format}${exit})`
    : `${c.check}: no complete test report (${c.runner ?? c.format}${exit})`;
  const lines = [head];
  for (const f of c.failures) {
    const where = f.file ? ` (${f.file})` : "";
    const why = f.message ? `: ${f.message.split("\n")[0]!.slice(0, MESSAGE_CHARS)}` : "";
    lines.push(`- ${f.name}${where}${why}`);
  }
  if (c.moreFailures > 0) lines.push(`- … and ${c.moreFailures} more failing`);
  if (c.error) lines.push(`- the run itself failed: ${c.error.split("\n").slice(0, 5).join(" | ").slice(0, 600)}`);
  for (const w of c.warnings) lines.push(`- note: ${w}`);
  return lines;
}

export function testsSectionBody(checks: readonly CheckFeedback[] | undefined): string {
  return (checks ?? []).flatMap(oneCheck).join("\n");
}
