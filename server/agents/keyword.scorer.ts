import type { ScorerPort, ValidatorFn } from "../engine";
import type { KeywordScorerConfig } from "./scorer.schema";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function matcher(config: KeywordScorerConfig): (output: string) => { found: string[]; missing: string[] } {
  const patterns = config.keywords.map((keyword) => {
    // \b only works next to word characters; "C++" or ".env" need plain containment at that end.
    const start = config.wholeWord && /^\w/.test(keyword) ? "\\b" : "";
    const end = config.wholeWord && /\w$/.test(keyword) ? "\\b" : "";
    return { keyword, re: new RegExp(`${start}${escape(keyword)}${end}`, config.caseSensitive ? "u" : "iu") };
  });
  return (output) => {
    const found: string[] = [];
    const missing: string[] = [];
    for (const { keyword, re } of patterns) (re.test(output) ? found : missing).push(keyword);
    return { found, missing };
  };
}

export function createKeywordScorer(config: KeywordScorerConfig): ScorerPort {
  const match = matcher(config);
  return {
    name: config.name,
    score({ output }) {
      const { found, missing } = match(output);
      const score = found.length / config.keywords.length;
      return { score, reason: missing.length ? `missing: ${missing.join(", ")}` : `all ${found.length} terms present` };
    },
  };
}

export function keywordValidator(config: KeywordScorerConfig): ValidatorFn {
  const match = matcher(config);
  return ({ output }) => {
    const { missing } = match(output);
    return {
      name: config.name,
      valid: missing.length === 0,
      errors: missing.map((k) => `the output does not mention "${k}"`),
    };
  };
}

const STOPWORDS = new Set(
  "a an and are as at be by for from has have how in into is it its make more most must of on or our should so than that the their them then there these this those to using use was we what when where which while who will with without would your you write explain build create add".split(
    " ",
  ),
);

/** The distinctive terms of a goal, in order: what the demo preset's keyword scorer looks for. */
export function goalKeywords(goal: string, limit = 8): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const raw of goal.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}+#-]*/gu) ?? []) {
    const term = raw.replace(/-+$/, "");
    if (term.length < 4 || STOPWORDS.has(term) || seen.has(term)) continue;
    seen.add(term);
    terms.push(term);
    if (terms.length === limit) break;
  }
  return terms;
}
