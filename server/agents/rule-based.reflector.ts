/**
 * Reflection without a model: the failing scorers and the error already say
 * most of what went wrong. Hints per scorer (built from the scorer configs)
 * turn "tests scored 0.40" into something the next agent can act on.
 */
import type { Reflection, ReflectionContext, ReflectorPort } from "../engine";

export type ScorerHints = Record<string, string>;

const ITEMS: Record<ReflectionContext["level"], number> = { low: 2, medium: 4, high: 10 };

const CAUSES: [RegExp, string][] = [
  [/timed out|timeout/i, "The agent ran out of time before finishing"],
  [/HTTP 429|rate limit/i, "The model provider rate-limited the agent"],
  [/HTTP 5\d\d|provider error|unavailable/i, "The model provider had an outage"],
  [/rejected the request|HTTP 4\d\d/i, "The provider rejected the request (key, model name or request is wrong)"],
  [/exited with code (\d+)|killed by/i, "The agent process failed"],
  [/could not start|ENOENT/i, "The agent command could not be started"],
  [/malformed JSON|not valid/i, "A reply did not have the required format"],
];

const short = (text: string, n = 200) => (text.length > n ? `${text.slice(0, n)}…` : text);

/** How many of the latest reflections name the same weakest scorer first. */
function streak(history: readonly Reflection[], name: string): number {
  let count = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    if (!history[i]!.keyFindings[0]?.startsWith(`"${name}"`)) break;
    count++;
  }
  return count;
}

export function ruleBasedReflection(ctx: ReflectionContext, hints: ScorerHints = {}): Reflection {
  const limit = ITEMS[ctx.level];
  const failing = Object.entries(ctx.scores)
    .filter(([, score]) => score < 1)
    .sort((a, b) => a[1] - b[1]);
  const total = Object.keys(ctx.scores).length;

  const keyFindings = failing.map(([name, score]) => `"${name}" scored ${score.toFixed(2)}`);
  if (!ctx.error && ctx.output.trim() === "") keyFindings.push("The agent produced no output");

  const rootCauses: string[] = [];
  if (ctx.error) {
    const known = CAUSES.find(([re]) => re.test(ctx.error!));
    rootCauses.push(known ? `${known[1]}: ${short(ctx.error)}` : `The iteration failed: ${short(ctx.error)}`);
  }
  for (const [name, score] of failing) {
    if (score === 0) rootCauses.push(`"${name}" failed completely`);
  }

  const insights: string[] = [];
  const weakest = failing[0];
  if (weakest) {
    const runs = streak(ctx.history, weakest[0]);
    if (runs >= 1)
      insights.push(
        `"${weakest[0]}" has been the weakest check for ${runs + 1} iterations: change approach instead of repeating it`,
      );
  }
  if (failing.length === 0 && total > 0 && !ctx.error)
    insights.push("Every check passed; what remains is evidence of completion");
  if (
    ctx.history.length > 0 &&
    ctx.error &&
    ctx.history[ctx.history.length - 1]!.rootCauses.some((c) => ctx.error && c.includes(short(ctx.error)))
  ) {
    insights.push("The same error happened in the previous iteration");
  }

  const suggestions = failing.map(([name, score]) => hints[name] ?? `Improve "${name}" (now ${score.toFixed(2)})`);
  if (ctx.error && /timed out|timeout/i.test(ctx.error))
    suggestions.unshift("Take a smaller step this iteration so it finishes in time");

  const what = ctx.error
    ? `failed: ${short(ctx.error, 120)}`
    : `scored ${ctx.meanScore === null ? "n/a" : ctx.meanScore.toFixed(2)} on average`;
  const checks = total > 0 ? `; ${failing.length} of ${total} checks below full marks` : "";
  const worst = failing.length
    ? ` (weakest: ${failing
        .slice(0, 2)
        .map(([n]) => n)
        .join(", ")})`
    : "";

  return {
    summary: `Iteration ${ctx.iteration} ${what}${checks}${worst}.`,
    keyFindings: keyFindings.slice(0, limit),
    rootCauses: rootCauses.slice(0, limit),
    insights: insights.slice(0, limit),
    suggestions: suggestions.slice(0, limit),
  };
}

export function createRuleBasedReflector(hints: ScorerHints = {}): ReflectorPort {
  return { reflect: (ctx) => Promise.resolve(ruleBasedReflection(ctx, hints)) };
}
