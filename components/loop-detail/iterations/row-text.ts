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

/**
 * What an iteration whose agent ran but whose evidence said "not done" did,
 * in words: how its score moved from the iteration before and how many tests
 * still fail ("improved 0.40 → 0.60; 2 tests still failing"). Every such
 * iteration used to read "ran · evidence failed", the improving ones too.
 * `previousMean`: the mean score of the iteration before (undefined: not loaded).
 */
export function evidenceOutcomeText(
  it: { meanScore: number | null; failingTests: number | null },
  previousMean: number | null | undefined,
): string {
  const s = (v: number) => v.toFixed(2);
  const mean = it.meanScore;
  const moved =
    mean === null
      ? "not scored"
      : previousMean === null || previousMean === undefined
        ? `score ${s(mean)}`
        : mean > previousMean + 1e-9
          ? `improved ${s(previousMean)} → ${s(mean)}`
          : mean < previousMean - 1e-9
            ? `dropped ${s(previousMean)} → ${s(mean)}`
            : `no change at ${s(mean)}`;
  const left =
    it.failingTests && it.failingTests > 0
      ? `${it.failingTests} test${it.failingTests === 1 ? "" : "s"} still failing`
      : "evidence says not done";
  return `${moved}; ${left}`;
}
