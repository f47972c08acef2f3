// The composed prompt as the engine built it: the goal, then `[Section]`
// blocks separated by blank lines (see server/engine/next-input.ts). Split
// here only to show where each section starts; the text is never changed.
// Pure.

/** A section heading: `[Name]` alone on its line, right after a blank line. */
const HEADING = /\n\n\[([A-Z][A-Za-z ]{0,40})\](?=\n|$)/g;

export interface PromptPart {
  /** "Goal" for the text before the first section. */
  name: string;
  /** The heading line as printed (`[Name]`), or "" for the goal. */
  heading: string;
  /** Everything after the heading up to the next one, separators included, exactly as composed. */
  body: string;
}

export function promptParts(input: string): PromptPart[] {
  const parts: PromptPart[] = [];
  let name = "Goal";
  let heading = "";
  let from = 0;
  for (const match of input.matchAll(HEADING)) {
    // The blank line before a heading ends the part before it.
    const at = match.index + 2;
    parts.push({ name, heading, body: input.slice(from + heading.length, at) });
    name = match[1]!;
    heading = `[${name}]`;
    from = at;
  }
  parts.push({ name, heading, body: input.slice(from + heading.length) });
  return parts;
}

/** The parts joined back: always the input itself (the page shows the exact prompt). */
export function joinParts(parts: readonly PromptPart[]): string {
  return parts.map((p) => p.heading + p.body).join("");
}
