import { describe, expect, it } from "vitest";
import {
  assertEvidenceSource,
  assertFallbackAgent,
  evidenceSourcesOf,
  NO_EVIDENCE_MESSAGE,
  NO_FALLBACK_MESSAGE,
} from "./loop-evidence";
import { loopDefinitionSchema } from "./loop-definition";

const agent = { kind: "command", argv: ["./agent.sh"] };
const length = { kind: "length", name: "len", min: 1 };
const validator = { kind: "keyword", name: "kw", keywords: ["done"], role: "validate" };
const verifier = { kind: "command", argv: ["npm", "test"] };
const def = (extra: Record<string, unknown>) => loopDefinitionSchema.parse({ goal: "g", agent, ...extra });

describe("a loop needs an evidence source", () => {
  it.each([
    ["nothing at all", {}, []],
    ["scorers without a score threshold", { scorers: [length] }, []],
    ["a score threshold without scorers", { loop: { stop: { scoreThreshold: 0.9 } } }, []],
    ["scorers and a threshold", { scorers: [length], loop: { stop: { scoreThreshold: 0.9 } } }, ["score"]],
    ["a validator", { scorers: [validator] }, ["validators"]],
    ["a verifier", { verifier }, ["verifier"]],
    ["a verifier completion.evidence does not count", { verifier, loop: { completion: { evidence: ["score"] } } }, []],
  ])("%s", (_, extra, sources) => {
    const definition = def(extra);
    expect(evidenceSourcesOf(definition)).toEqual(sources);
    if (sources.length > 0) expect(() => assertEvidenceSource(definition)).not.toThrow();
    else expect(() => assertEvidenceSource(definition)).toThrow(NO_EVIDENCE_MESSAGE);
  });

  it("completion.allowNoEvidence lets it run", () => {
    expect(() => assertEvidenceSource(def({ loop: { completion: { allowNoEvidence: true } } }))).not.toThrow();
  });
});

describe("a fallback policy needs a fallback agent", () => {
  const fallback = { loop: { limits: { onUsageLimit: "fallback" } } };
  it("is refused at create when the fallback agent sits under the wrong key (issue 31: it waited 10 minutes)", () => {
    // Inside `agent` or `loop.limits` the schema drops it: nothing is left to fall back to.
    const misplaced = def({ ...fallback, agent: { ...agent, fallbackAgent: { kind: "demo" } } });
    expect(misplaced.fallbackAgent).toBeUndefined();
    expect(() => assertFallbackAgent(misplaced)).toThrow(NO_FALLBACK_MESSAGE);
    expect(() => assertFallbackAgent(def({ ...fallback, fallbackAgent: { kind: "demo" } }))).not.toThrow();
    expect(() => assertFallbackAgent(def({}))).not.toThrow();
  });
});
