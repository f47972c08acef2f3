/**
 * The demo agent: offline and deterministic for a seed, so Ralph Control can
 * be tried without keys and the seeded demo loops replay identically. Its
 * answers cover more of the goal's key terms as iterations go by (with
 * plateaus), it reports realistic tokens and cost, and it misbehaves on
 * purpose now and then — failing calls, and claiming "done" too early — so
 * retries and the evidence gate have something to show. Everything it
 * produces is labelled "demo".
 */
import type { AgentPort, AgentRunRequest, AgentRunResult } from "../engine";
import { AgentError, abortedError } from "./agent-error";
import { detectClaim } from "./claim";
import type { AgentDeps } from "./deps";
import type { DemoAgentConfig } from "./demo.schema";
import { goalKeywords } from "./keyword.scorer";
import { defaultPriceLookup, priceUsage } from "./pricing";

export const DEMO_MODEL = "demo-model";
const FALLBACK_TERMS = ["overview", "approach", "details", "examples", "risks", "summary"];
/** The preset's length scorer wants this much; a complete demo answer always has it. */
export const DEMO_FULL_LENGTH = 1200;

/** mulberry32: tiny, fast and good enough to make pretend behaviour repeatable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Productive steps done by each iteration: iteration 1 always gains; plateaus last at most two iterations. */
export function demoCoverage(seed: number, steps: number, iteration: number): number {
  const random = seededRandom(seed);
  let gained = 0;
  let flat = 0;
  for (let i = 1; i <= iteration; i++) {
    const plateau = i > 1 && flat < 2 && random() < 0.35;
    if (plateau) flat++;
    else {
      flat = 0;
      gained++;
    }
  }
  return Math.min(1, gained / steps);
}

const SENTENCES = [
  (t: string) => `The ${t} part is handled first, because everything else builds on it.`,
  (t: string) => `For ${t}, the draft now gives a concrete example and the reasoning behind it.`,
  (t: string) => `A short checklist covers ${t}, including the edge cases found so far.`,
  (t: string) => `${t[0]!.toUpperCase()}${t.slice(1)} is addressed with a small, testable change.`,
];

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortedError("The demo agent"));
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener("abort", stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(abortedError("The demo agent"));
    }
    signal.addEventListener("abort", stop, { once: true });
  });
}

function compose(
  config: DemoAgentConfig,
  request: AgentRunRequest,
  terms: string[],
  coverage: number,
  random: () => number,
  suffix: string,
) {
  const covered = terms.slice(0, Math.round(coverage * terms.length));
  const lines = [
    `[demo] Offline demo agent (seed ${config.seed}) — iteration ${request.iteration}, attempt ${request.attempt}. Not a real model.`,
    "",
    `Draft answer, version ${request.iteration}:`,
    "",
  ];
  for (const term of covered) lines.push(`- ${SENTENCES[Math.floor(random() * SENTENCES.length)]!(term)}`);
  if (covered.length < terms.length)
    lines.push("", `Still to do: ${terms.length - covered.length} of ${terms.length} parts.`);
  // Padded to a length set by progress alone, so a plateau really scores flat.
  let text = lines.join("\n");
  const target = Math.round(DEMO_FULL_LENGTH * (0.25 + 0.75 * coverage)) - suffix.length;
  const filler =
    "\nNotes: each step is checked against the goal before moving on; open questions are listed for the next iteration.";
  if (text.length < target)
    text = (text + filler.repeat(Math.ceil((target - text.length) / filler.length))).slice(0, target);
  return { text: text + suffix, covered };
}

export function createDemoAgent(config: DemoAgentConfig, deps: AgentDeps): AgentPort {
  const pricing = deps.pricing ?? defaultPriceLookup;
  return {
    async run(request): Promise<AgentRunResult> {
      if (request.signal.aborted) throw abortedError("The demo agent");
      const random = seededRandom(hash(`${config.seed}:${request.iteration}:${request.attempt}`));
      const terms =
        config.keywords ?? (goalKeywords(request.goal).length ? goalKeywords(request.goal) : FALLBACK_TERMS);
      const coverage = demoCoverage(config.seed, config.stepsToComplete, request.iteration);

      const beats = 4;
      for (let i = 1; i <= beats; i++) {
        if (config.delayMs > 0) await sleep(config.delayMs / beats, request.signal);
        request.onProgress({ kind: "progress", message: `demo: drafting (${i}/${beats})` });
        request.onProgress({
          kind: "output",
          text: `drafting part ${i} of ${beats} for iteration ${request.iteration}`,
        });
      }
      if (config.usageLimitAt.includes(request.iteration)) {
        // Claude Code's own wording, so the engine reads the reset time exactly as from the real CLI.
        const resetAt = Math.ceil(((deps.now ?? Date.now)() + config.usageLimitResetSeconds * 1000) / 1000);
        const message = `Claude AI usage limit reached|${resetAt}`;
        throw new AgentError("usage_limit", `demo: simulated usage limit (${message})`, {
          retryable: false,
          details: { label: "demo", usageLimit: { message } },
        });
      }
      if (random() < config.failureRate) {
        throw new AgentError(
          "demo_failure",
          "demo: simulated provider error (HTTP 503), as real providers sometimes return",
          {
            retryable: true,
            details: { label: "demo" },
          },
        );
      }

      const claimsEarly = coverage >= 0.4 && random() < config.earlyClaimRate;
      const suffix = coverage >= 1 || claimsEarly ? "\n\n<promise>COMPLETE</promise>" : "";
      const { text: output, covered } = compose(config, request, terms, coverage, random, suffix);
      const prompt = Math.ceil(request.input.length / 4) + 420; // plus a pretend system prompt
      const cache = request.iteration > 1 ? Math.floor(prompt * 0.6) : 0;
      const usage = { input: prompt - cache, output: Math.ceil(output.length / 4) + Math.floor(random() * 300), cache };
      return {
        output,
        claim: detectClaim(output, undefined, request.completionSignal),
        usage,
        costUsd: priceUsage(pricing, DEMO_MODEL, usage).costUsd,
        toolCalls: covered.length ? ["read_file", ...covered.map(() => "edit_file")] : ["read_file"],
        progress: { completedItems: covered, pendingItems: terms.filter((t) => !covered.includes(t)) },
        meta: { kind: "demo", label: "demo", seed: config.seed, coverage, model: DEMO_MODEL, warnings: [] },
      };
    },
  };
}
