// Short texts for an iteration's one-line summary. Pure.

/** The first non-empty line of an error, cut to `max` characters (the full text is in the details). */
export function firstErrorLine(error: string | null | undefined, max = 160): string | null {
  if (!error) return null;
  const line = error
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== "");
  if (!line) return null;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "1.2k in · 340 out · 5k cache": the cache part only when there was any. */
export function tokenText(
  it: { tokensIn: number; tokensOut: number; tokensCache: number },
  format: (n: number) => string,
): string {
  const parts = [`${format(it.tokensIn)} in`, `${format(it.tokensOut)} out`];
  if (it.tokensCache > 0) parts.push(`${format(it.tokensCache)} cache`);
  return parts.join(" · ");
}
