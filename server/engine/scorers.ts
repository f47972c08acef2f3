/**
 * Reference scorers matching OB's published example: keyword correctness and
 * minimum length. Real loops bring their own through ScorerPort.
 */
import type { ScorerPort } from "./ports";

/** Fraction of the keywords present in the output (case-insensitive). */
export function keywordScorer(keywords: readonly string[], name = "keywords"): ScorerPort {
  return {
    name,
    score: ({ output }) => {
      if (keywords.length === 0) return { score: 1, reason: "no keywords required" };
      const text = output.toLowerCase();
      const found = keywords.filter((k) => text.includes(k.toLowerCase()));
      return { score: found.length / keywords.length, reason: `found ${found.length}/${keywords.length} keywords` };
    },
  };
}

/** 1 when the output has at least `minLength` characters, proportionally less below. */
export function lengthScorer(minLength: number, name = "length"): ScorerPort {
  return {
    name,
    score: ({ output }) => {
      const length = output.trim().length;
      const score = minLength <= 0 ? 1 : Math.min(1, length / minLength);
      return { score, reason: `${length} chars (min ${minLength})` };
    },
  };
}
