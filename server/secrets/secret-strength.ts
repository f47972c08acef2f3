// Short secret values cannot be redacted safely: scrubbing a 4-character value
// everywhere would mangle ordinary text, so output redaction skips values under
// 6 characters, and below 8 its transformed forms (halves, encodings) are too
// short to recognise. Saving one is allowed, with a warning the admin sees.

/** Below this many characters a value is saved with a warning. */
export const MIN_SAFE_SECRET_CHARS = 8;

/** The warning for a value too short to redact reliably, or null when it is long enough. */
export function shortSecretWarning(value: string): string | null {
  const length = [...value].length;
  if (length >= MIN_SAFE_SECRET_CHARS) return null;
  return (
    `This value is ${length} characters long. Values shorter than ${MIN_SAFE_SECRET_CHARS} characters cannot be ` +
    `reliably redacted from agent output, exports and share pages (shorter than 6 are not redacted at all). ` +
    `Use a longer secret if you can.`
  );
}
