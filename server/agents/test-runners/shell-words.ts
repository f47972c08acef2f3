/**
 * Just enough shell parsing to read a package.json script: words (with
 * quotes) and the operators that separate commands. Arguments that `npm test
 * -- …` appends land on the last command, so that is the one that matters.
 */
export type Segment = string[];

const OPERATORS = ["&&", "||", ";", "|", "&"];

export function splitScript(script: string): Segment[] {
  const segments: Segment[] = [[]];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  const push = () => {
    if (word !== null) segments.at(-1)!.push(word);
    word = null;
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < script.length) word += script[++i]!;
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word ??= "";
      continue;
    }
    if (c === "\\" && i + 1 < script.length) {
      word = (word ?? "") + script[++i]!;
      continue;
    }
    const op = OPERATORS.find((o) => script.startsWith(o, i));
    if (op) {
      push();
      segments.push([]);
      i += op.length - 1;
      continue;
    }
    if (/\s/.test(c)) push();
    else word = (word ?? "") + c;
  }
  push();
  return segments.filter((s) => s.length > 0);
}
