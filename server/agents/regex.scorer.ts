import type { ScorerPort, ValidatorFn } from "../engine";
import type { RegexScorerConfig } from "./scorer.schema";

function check(config: RegexScorerConfig): (output: string) => { pass: boolean; count: number } {
  const re = new RegExp(config.pattern, `${config.flags}g`);
  return (output) => {
    let count = 0;
    re.lastIndex = 0;
    // Counting stops once enough matches are seen; a long output need not be scanned to the end.
    for (let m = re.exec(output); m !== null && count < config.minMatches; m = re.exec(output)) {
      count++;
      if (m[0] === "") re.lastIndex++;
    }
    const matched = count >= config.minMatches;
    return { pass: config.expect === "match" ? matched : count === 0, count };
  };
}

const describe = (c: RegexScorerConfig) =>
  c.expect === "match"
    ? `match /${c.pattern}/${c.flags}${c.minMatches > 1 ? ` at least ${c.minMatches} times` : ""}`
    : `not match /${c.pattern}/${c.flags}`;

export function createRegexScorer(config: RegexScorerConfig): ScorerPort {
  const run = check(config);
  return {
    name: config.name,
    score({ output }) {
      const { pass } = run(output);
      return { score: pass ? 1 : 0, reason: `${pass ? "does" : "does not"} ${describe(config)}` };
    },
  };
}

export function regexValidator(config: RegexScorerConfig): ValidatorFn {
  const run = check(config);
  return ({ output }) => {
    const { pass } = run(output);
    return { name: config.name, valid: pass, errors: pass ? [] : [`the output should ${describe(config)}`] };
  };
}
