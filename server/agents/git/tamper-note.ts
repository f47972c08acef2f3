import type { TamperCheck } from "./loop-workspace";

/** The flag every check puts in its reason, so the timeline and the next prompt can name the files. */
export function tamperNote(check: TamperCheck): string {
  const files = check.tampered.join(", ");
  return check.restored
    ? `evidence_tampered: protected files were changed and restored to the baseline before this check ran (${files}); this iteration cannot complete`
    : `evidence_tampered: protected files were changed (${files}); policy "fail" counts this iteration as failed evidence`;
}

/** The line the next prompt carries (through the check's test evidence notes), addressed to the agent. */
export function tamperPromptLine(check: TamperCheck): string {
  const files = check.tampered.join(", ");
  return check.restored
    ? `Your change to ${files} was reverted: protected test files may be read but not changed, and the checks ran on the originals.`
    : `Your change to ${files} counts as tampering with the evidence, so this iteration failed: put the original files back.`;
}
