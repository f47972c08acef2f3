import type { ScorerPort, ValidatorFn } from "../engine";
import type { LengthScorerConfig } from "./scorer.schema";

function measure(config: LengthScorerConfig, output: string): number {
  if (config.unit === "chars") return output.length;
  const words = output.trim().split(/\s+/);
  return words[0] === "" ? 0 : words.length;
}

/** 1 inside [min, max]; below, the share of min reached; above, max/length so rambling decays gently. */
export function lengthScore(config: LengthScorerConfig, output: string): { score: number; length: number } {
  const length = measure(config, output);
  if (length < config.min) return { score: config.min === 0 ? 1 : length / config.min, length };
  if (config.max !== undefined && length > config.max) return { score: config.max / length, length };
  return { score: 1, length };
}

const range = (c: LengthScorerConfig) => `${c.min}${c.max !== undefined ? `–${c.max}` : "+"} ${c.unit}`;

export function createLengthScorer(config: LengthScorerConfig): ScorerPort {
  return {
    name: config.name,
    score({ output }) {
      const { score, length } = lengthScore(config, output);
      return { score, reason: `${length} ${config.unit} (wanted ${range(config)})` };
    },
  };
}

export function lengthValidator(config: LengthScorerConfig): ValidatorFn {
  return ({ output }) => {
    const { score, length } = lengthScore(config, output);
    return {
      name: config.name,
      valid: score === 1,
      errors: score === 1 ? [] : [`the output has ${length} ${config.unit}; it should have ${range(config)}`],
    };
  };
}
