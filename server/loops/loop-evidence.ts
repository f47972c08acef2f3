// A loop needs something that can say "done": without a verifier, a score
// threshold over real scorers, or validators (each allowed by
// completion.evidence), every iteration is badged "evidence says no" and the
// loop can only stop on its limits. Such a loop is refused at creation unless
// completion.allowNoEvidence says the operator means it.
import type { EvidenceSource } from "../engine";
import { parseScorerConfigs, scores, validates } from "../agents/registry";
import { invalidInput } from "../errors";
import type { LoopDefinition } from "./loop-definition";

/** The evidence sources this definition actually has, among those completion.evidence counts. */
export function evidenceSourcesOf(definition: LoopDefinition): EvidenceSource[] {
  const counted = definition.loop.completion.evidence;
  const scorers = parseScorerConfigs(definition.scorers);
  const has: Record<EvidenceSource, boolean> = {
    verifier: definition.verifier.kind !== "none",
    score: definition.loop.stop.scoreThreshold > 0 && scorers.some(scores),
    validators: scorers.some(validates),
  };
  return counted.filter((source) => has[source]);
}

export const NO_EVIDENCE_MESSAGE =
  "This loop has no evidence source, so it can never complete. Add a verifier (e.g. a command that runs your tests), " +
  "or scorers with a score threshold (loop.stop.scoreThreshold > 0), or validators, and make sure " +
  "loop.completion.evidence counts it. To run it anyway until a limit stops it, set loop.completion.allowNoEvidence: true.";

/** Refuses (BAD_REQUEST) a definition that can never complete, unless explicitly allowed. */
export function assertEvidenceSource(definition: LoopDefinition): void {
  if (definition.loop.completion.allowNoEvidence) return;
  if (evidenceSourcesOf(definition).length === 0) throw invalidInput(NO_EVIDENCE_MESSAGE);
}

export const NO_FALLBACK_MESSAGE =
  'loop.limits.onUsageLimit is "fallback", but there is no fallbackAgent: the loop would wait out every usage ' +
  'limit instead. Put the fallback agent at the top level of the definition, beside "agent" (fallbackAgent: ' +
  '{ "kind": ... }), or choose another onUsageLimit policy.';

/**
 * Refuses (BAD_REQUEST) a fallback policy without a fallback agent: one placed under another key
 * (inside `agent` or `loop.limits`) was dropped by the schema, and the loop waited 10 minutes.
 */
export function assertFallbackAgent(definition: LoopDefinition): void {
  if (definition.loop.limits.onUsageLimit === "fallback" && !definition.fallbackAgent)
    throw invalidInput(NO_FALLBACK_MESSAGE);
}
